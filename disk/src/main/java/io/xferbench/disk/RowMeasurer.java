package io.xferbench.disk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.read.ExpectedContent;
import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.read.ReadOutcome;
import io.xferbench.core.read.ReadSpec;
import io.xferbench.core.read.ReadUnsupportedException;
import io.xferbench.nativeio.PageCache;
import io.xferbench.nativeio.ResourceUsage;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Runs one Java or fio row with an explicit cache state (cold: the file evicted with fadvise(DONTNEED) first, then
 * {@code settle} waited out, see {@link FreePageReporting}; warm: read into the cache first) and measures it: latency
 * histogram, getrusage deltas, device counters. A Java row runs after its engine's warm-up ({@link EngineWarmUp}).
 */
final class RowMeasurer {
    private final BlockDevice device;
    private final ContentGenerator generator;
    private final Duration settle;
    private final EngineWarmUp warmUp;
    private final ObjectMapper json = new ObjectMapper();
    private boolean rehearsed;

    RowMeasurer(BlockDevice device, ContentGenerator generator, Duration settle, Duration jitSettle) {
        this.device = device;
        this.generator = generator;
        this.settle = settle;
        this.warmUp = new EngineWarmUp(jitSettle);
    }

    DiskRow java(ReadEngine engine, ReadSpec spec, String cache) throws IOException {
        String reason = engine.unsupported(spec);
        if (reason == null) {
            try {
                return measured(engine, spec, cache);
            } catch (ReadUnsupportedException e) {
                reason = e.getMessage();
            }
        }
        return DiskRow.skipped("java", engine.name(), pattern(spec), spec.blockSize(), spec.concurrency(),
                engine.direct(), cache, spec.span(), 0, reason);
    }

    private DiskRow measured(ReadEngine engine, ReadSpec spec, String cache) throws IOException {
        long expected = ExpectedContent.digest(generator, spec);
        ReadSpec shape = EngineWarmUp.shapeOf(spec);
        if (!rehearsed) {
            // The first measurement loads the classes of the timing path (perf's start, getrusage, the device's
            // counters, the cache's eviction); a class loaded after the warm-up can invalidate the engine's compiled
            // code (its class-hierarchy assumptions) and send the timed row back to the interpreter. So that path
            // runs once, on the warm-up's shape, before any warm-up.
            measure(engine, shape, cache, Duration.ZERO);
            rehearsed = true;
        }
        EngineWarmUp.Outcome warm = warmUp.run(engine, shape);
        Measured m = measure(engine, spec, cache, settle);
        ReadOutcome outcome = m.outcome();
        double gib = outcome.bytes() / (double) Sizes.GiB;
        double seconds = outcome.readNanos() / 1e9;
        return new DiskRow("java", engine.name(), pattern(spec), spec.blockSize(), spec.concurrency(), engine.direct(),
                cache, spec.span(), 0, outcome.ops(), outcome.ops() / seconds, Sizes.mib(outcome.bytes()) / seconds,
                m.latencies().getValueAtPercentile(50) / 1e3, m.latencies().getValueAtPercentile(99) / 1e3,
                m.usage().contextSwitches() / gib, (m.usage().userSeconds() + m.usage().systemSeconds()) / gib,
                m.device().reads(), m.device().sectors() * 512 / Sizes.MiB, m.device().microsPerRead(),
                m.syscallsPerOp(), outcome.digest() == expected, null, null, null, 1, warm.seconds(), warm.settled(),
                null);
    }

    /** What the timing path saw of one engine run. */
    private record Measured(ReadOutcome outcome, ResourceUsage usage, BlockDevice.Counters device, Double syscallsPerOp,
                            Histogram latencies) {
    }

    /** Sets the cache state, then runs the engine once inside the counting window. */
    private Measured measure(ReadEngine engine, ReadSpec spec, String cache, Duration settle) throws IOException {
        prepare(spec, cache, settle);
        ThreadHistograms latencies = new ThreadHistograms();
        SyscallTally syscalls = SyscallTally.ofThisProcess();
        ReadOutcome outcome;
        ResourceUsage ru;
        BlockDevice.Counters dev;
        try {
            // Switching perf on and off waits for its acks, and stopping it forks kill(1) and waits for perf to
            // exit: 8-26 ms measured, a quarter of a fast 4 KiB row. fio's runtime excludes its perf wrapper too,
            // so getrusage and the device counters see the engine only, inside the counting window; the clock is the
            // engine's own (ReadOutcome.readNanos: its threads and files set up first, as fio's jobs are).
            syscalls.start();
            BlockDevice.Counters dev0 = device.counters();
            ResourceUsage ru0 = ResourceUsage.process();
            outcome = engine.read(spec, latencies);
            ru = ResourceUsage.process().minus(ru0);
            dev = device.counters().minus(dev0);
        } finally {
            syscalls.pause();
        }
        return new Measured(outcome, ru, dev, syscalls.perOp(outcome.ops()), latencies.merged());
    }

    /** Runs fio (optionally wrapped, e.g. into a cgroup); its own JSON gives IOPS, latency, CPU and switches. */
    DiskRow fio(String fio, FioJob job, String cache, java.util.function.UnaryOperator<List<String>> wrap)
            throws IOException {
        ReadSpec like = new ReadSpec(job.file(), job.span(), job.pattern(), job.blockSize(), job.queueDepth(),
                Math.max(1, job.ops()), 42);
        prepare(like, cache, settle);
        BlockDevice.Counters dev0 = device.counters();
        ResourceUsage children0 = ResourceUsage.children();
        FioOutput run = run(wrap.apply(SyscallTally.wrapped(job.command(fio))));
        if (run.exit() != 0) {
            return DiskRow.skipped("fio", job.label(), pattern(like), job.blockSize(), job.queueDepth(),
                    job.direct(), cache, job.span(), 0, "fio exited " + run.exit() + " for " + job.command(fio));
        }
        // Waited for (fio by perf, perf by the JDK's reaper), so fio's threads, kernel ones included, are in here.
        ResourceUsage children = ResourceUsage.children().minus(children0);
        BlockDevice.Counters dev = device.counters().minus(dev0);
        return fioRow(job, like, cache, run, children, dev);
    }

    /** What a fio run printed: its JSON on stdout, the syscalls its wrapper counted on stderr (null: not counted). */
    private record FioOutput(String out, Long syscalls, int exit) {
    }

    /** Runs {@code command} to its end. */
    private static FioOutput run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Long syscalls = SyscallTally.total(err.join());
            return new FioOutput(out, syscalls, p.waitFor());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** The row of a fio run that exited 0, from its JSON and what it used ({@code children}, {@code dev}). */
    private DiskRow fioRow(FioJob job, ReadSpec like, String cache, FioOutput run, ResourceUsage children,
            BlockDevice.Counters dev) throws IOException {
        String out = run.out();
        Long syscalls = run.syscalls();
        JsonNode j = json.readTree(out.substring(out.indexOf('{'))).path("jobs").path(0);
        JsonNode read = j.path("read");
        long bytes = read.path("io_bytes").asLong();
        double gib = Math.max(bytes, 1) / (double) Sizes.GiB;
        double seconds = j.path("job_runtime").asDouble(read.path("runtime").asDouble()) / 1e3;
        double cpuSeconds = job.cpuOfWholeProcess() ? children.userSeconds() + children.systemSeconds()
                : (j.path("usr_cpu").asDouble() + j.path("sys_cpu").asDouble()) / 100 * seconds;
        JsonNode pct = read.path("clat_ns").path("percentile");
        return new DiskRow("fio", job.label(), pattern(like), job.blockSize(), job.queueDepth(), job.direct(), cache,
                job.span(), 0, read.path("total_ios").asLong(), read.path("iops").asDouble(),
                read.path("bw_bytes").asDouble() / Sizes.MiB, pct.path("50.000000").asDouble() / 1e3,
                pct.path("99.000000").asDouble() / 1e3, j.path("ctx").asDouble() / gib, cpuSeconds / gib, dev.reads(),
                dev.sectors() * 512 / Sizes.MiB, dev.microsPerRead(), syscalls == null ? null : syscalls / (double) Math.max(1, read.path("total_ios").asLong()),
                null, null, null, null, 1, null, null, null);
    }

    private static String drain(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Sets the cache state and checks it took: a "cold" row with pages still resident would be a lie. A cold row then
     * waits {@code settle}, so the memory its reads fill is in the same state for every tool.
     */
    private static void prepare(ReadSpec spec, String cache, Duration settle) throws IOException {
        if ("cold".equals(cache)) {
            PageCache.evict(spec.file());
            PageCache.Residency r = PageCache.residency(spec.file());
            if (r.residentPages() > 0) {
                throw new IOException("cannot make " + spec.file() + " cold: " + r.residentPages() + " of "
                        + r.totalPages() + " pages still resident after fadvise(DONTNEED) (mapped or dirty?)");
            }
            try {
                Thread.sleep(settle);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while settling after the eviction", e);
            }
        } else {
            PageCache.warm(spec.file());
        }
    }

    private static String pattern(ReadSpec spec) {
        return spec.pattern().name().toLowerCase(java.util.Locale.ROOT);
    }
}
