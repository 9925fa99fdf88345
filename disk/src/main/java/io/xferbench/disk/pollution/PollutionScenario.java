package io.xferbench.disk.pollution;

import io.xferbench.core.Sizes;
import io.xferbench.core.process.ChildProcess;
import io.xferbench.disk.BlockDevice;
import io.xferbench.disk.MemoryCgroup;
import io.xferbench.nativeio.PageCache;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * One mode of the scenario, with the server and its clients already running in the cgroup: evict the hot set and the
 * big file and check with mincore that nothing of either is left (page cache is charged to the cgroup of the process
 * that first touches a page, so both must be first read from inside the group: the hot set by the server, through
 * one unpaced {@link HotSetClients#fetchAll} pass, the big file by the reader), warm up and measure before, read the
 * big file in a child JVM checked to be a member of the same cgroup while sampling, take mincore and vmtouch back to
 * back when the read ends, then sample until the hot set has recovered (or the cap).
 */
final class PollutionScenario {
    /** The hot set must be this resident before a mode is measured, within {@link #WARMUP_CAP_NANOS}. */
    private static final double WARM_PERCENT = 99.0;
    private static final long WARMUP_CAP_NANOS = 30_000_000_000L;
    /** Recovery is judged on the last second of samples, so one lucky 250 ms sample does not count. */
    private static final int RECOVERY_SAMPLES = 4;

    private final PollutionOptions o;
    private final MemoryCgroup group;
    private final CpuPlacement cpus;
    private final HotSet hot;
    private final HotSetSampler sampler;
    private final HotSetClients clients;
    private final Path bigFile;
    private final long expectedDigest;
    private final BlockDevice device;
    private final PrintStream log;

    PollutionScenario(PollutionOptions o, MemoryCgroup group, CpuPlacement cpus, HotSet hot, HotSetClients clients,
                      Path bigFile, long expectedDigest, BlockDevice device, PrintStream log) {
        this.cpus = cpus;
        this.clients = clients;
        this.o = o;
        this.group = group;
        this.hot = hot;
        this.sampler = new HotSetSampler(hot, clients);
        this.bigFile = bigFile;
        this.expectedDigest = expectedDigest;
        this.device = device;
        this.log = log;
    }

    PollutionRow run(BigReadMode mode) throws IOException, InterruptedException {
        clients.stop(); // nothing may re-read the hot set while it is evicted
        evictAndCheck();
        clients.fetchAll();
        clients.start(o.connections);
        warmUp();
        sampler.reset();
        Sample.Span before = Sample.Span.of(collectBefore());

        BlockDevice.Counters dev0 = device.counters();
        ReadResult read;
        List<Sample> during = new ArrayList<>();
        try (ChildProcess reader = CgroupJvm.start(group, cpus.readerPrefix(), BigReader.class.getName(),
                List.of(mode.id, bigFile.toString(), Long.toString(o.bigSize), Integer.toString(o.blockSize)))) {
            String first = reader.readLine();
            if (first != null && first.startsWith("unsupported ")) {
                return PollutionRow.skipped(mode.id, o.bigSize, group.limitBytes(), first.substring(12));
            }
            if (!"reading".equals(first)) {
                throw new IOException("the big reader (" + mode.id + ") failed to start (exit "
                        + reader.waitFor() + (first == null ? "" : ", said " + first) + ")");
            }
            if (!group.hasMember(reader.pid())) {
                throw new IOException("the big reader (pid " + reader.pid() + ") is not in " + group.dir());
            }
            cpus.checkReader(reader.pid());
            sampler.reset();
            read = readWhileSampling(reader, mode, during);
        }
        // The moment of most eviction, counted twice: in-tool mincore, then vmtouch over the same files.
        PageCache.Residency endOfRead = hot.residency();
        VmTouch.Pages vmtouch = VmTouch.residency(hot.files());
        BlockDevice.Counters devDuring = device.counters().minus(dev0);
        double bigResident = PageCache.residency(bigFile).fraction() * 100;
        Sample.Span duringSpan = Sample.Span.of(during);

        long readEnd = System.nanoTime();
        After sampled = sampleAfter(readEnd, before);
        List<Sample> after = sampled.samples();
        BlockDevice.Counters devAfter = sampled.device();
        Double recovery = sampled.recovery();
        long afterNanos = o.before.toNanos();
        long capNanos = o.recoverCap.toNanos();
        List<Sample> afterWindow = after.stream().filter(s -> s.endNanos() - readEnd <= afterNanos + PERIOD_SLACK)
                .toList();
        Sample.Span afterSpan = Sample.Span.of(afterWindow);
        long errors = before.errors() + duringSpan.errors() + Sample.Span.of(after).errors();
        log.printf(Locale.ROOT, "bench-pollution: %s: %.0f MiB/s, hot residency %.1f/%.1f/%.1f %% (read end: mincore "
                + "%.1f, vmtouch %s), recovered %s%n", mode.id, read.mibPerSec(), before.meanResidency(),
                duringSpan.lowestResidency(), afterSpan.lastResidency(), endOfRead.fraction() * 100,
                vmtouch == null ? "-" : String.format(Locale.ROOT, "%.1f", vmtouch.percent()),
                recoveryPhrase(recovery));
        return new PollutionRow(mode.id, read.bytes(), read.passes(), read.mibPerSec(), read.verified(), bigResident,
                before.meanResidency(), duringSpan.lowestResidency(),
                afterSpan.lastResidency(), endOfRead.fraction() * 100, vmtouch == null ? null : vmtouch.percent(),
                before.requestsPerSecond(), duringSpan.requestsPerSecond(),
                afterSpan.requestsPerSecond(), before.p99Millis(), duringSpan.p99Millis(), afterSpan.p99Millis(),
                before.requests(), duringSpan.requests(), afterSpan.requests(), errors, recovery, capNanos / 1e9, devDuring.reads(), devDuring.sectors() * 512 / Sizes.MiB,
                devAfter.reads(), devAfter.sectors() * 512 / Sizes.MiB, group.limitBytes(), group.peakBytes(), null);
    }

    /**
     * Samples until the hot set is {@link #WARM_PERCENT} resident and at least --before has passed: the server's JIT
     * warms up here, not inside the measured windows. Fails when the hot set does not get there within the cap.
     */
    private void warmUp() throws IOException, InterruptedException {
        sampler.reset();
        long warmEnd = System.nanoTime() + WARMUP_CAP_NANOS;
        List<Sample> warm = sampler.collectWhile(() -> false);
        long warmMin = System.nanoTime() + o.before.toNanos();
        while ((warm.getLast().residencyPercent() < WARM_PERCENT || System.nanoTime() < warmMin)
                && System.nanoTime() < warmEnd) {
            warm.add(sampler.next());
        }
        if (warm.getLast().residencyPercent() < WARM_PERCENT) {
            throw new IOException(String.format(Locale.ROOT, "the hot set reached only %.1f%% residency in the "
                    + "cgroup (limit %s): too small for two JVMs and the hot set?", warm.getLast().residencyPercent(),
                    Sizes.format(group.limitBytes())));
        }
    }

    /** The after samples, the device's reads in the after window, and the seconds to recovery (null: not by the cap). */
    private record After(List<Sample> samples, BlockDevice.Counters device, Double recovery) {
    }

    /** After the read ended at {@code readEnd}: samples for as long as "before" lasted, and on until recovered or the cap. */
    private After sampleAfter(long readEnd, Sample.Span before) throws IOException, InterruptedException {
        BlockDevice.Counters dev1 = device.counters();
        BlockDevice.Counters devAfter = null;
        List<Sample> after = new ArrayList<>();
        Double recovery = null;
        long afterNanos = o.before.toNanos();
        long capNanos = o.recoverCap.toNanos();
        sampler.reset();
        while (true) {
            Sample s = sampler.next();
            after.add(s);
            long since = s.endNanos() - readEnd;
            if (devAfter == null && since >= afterNanos) {
                devAfter = device.counters().minus(dev1);
            }
            if (recovery == null && recovered(after, before)) {
                recovery = since / 1e9;
            }
            if (devAfter != null && (recovery != null || since >= capNanos)) {
                return new After(after, devAfter, recovery);
            }
        }
    }

    /**
     * The before window: at least --before long, and on until it holds --min-window-requests hot requests (or the
     * recovery cap on top of --before: a p99 short of them is marked, not hidden).
     */
    private List<Sample> collectBefore() throws IOException, InterruptedException {
        long start = System.nanoTime();
        long minEnd = start + o.before.toNanos();
        long capEnd = minEnd + o.recoverCap.toNanos();
        List<Sample> samples = new ArrayList<>();
        long requests = 0;
        do {
            Sample s = sampler.next();
            samples.add(s);
            requests += s.requests();
        } while (System.nanoTime() < capEnd && (System.nanoTime() < minEnd || requests < o.minWindowRequests));
        return samples;
    }

    /**
     * Samples the hot set while the big reader reads, and answers each whole pass it reports: again, until the
     * during window holds --min-window-requests hot requests or --max-passes were read. Every pass's digest is
     * checked; the result sums them.
     */
    private ReadResult readWhileSampling(ChildProcess reader, BigReadMode mode, List<Sample> during)
            throws IOException, InterruptedException {
        ReadResult read = ReadResult.NONE;
        while (true) {
            String line = nextLine(reader, mode, during);
            read = read.plus(Pass.parse(line), expectedDigest);
            long requests = Sample.Span.of(during).requests();
            if (requests >= o.minWindowRequests || read.passes() >= o.maxPasses) {
                reader.writeLine("stop");
                return read;
            }
            reader.writeLine("again");
        }
    }

    /** The reader's next line, sampling every period until it comes. */
    private String nextLine(ChildProcess reader, BigReadMode mode, List<Sample> during)
            throws IOException, InterruptedException {
        while (true) {
            String line = null;
            boolean came = false;
            try {
                line = reader.readLine(Duration.ofNanos(HotSetSampler.PERIOD_NANOS));
                came = true;
            } catch (TimeoutException e) {
                // still reading
            }
            during.add(sampler.now());
            if (came) {
                if (line == null) {
                    int exit = reader.waitFor();
                    throw new IOException("the big reader (" + mode.id + ") exited " + exit + " without finishing"
                            + (exit == 137 ? " (killed: cgroup limit too small for the JVM?)" : ""));
                }
                return line;
            }
        }
    }

    /**
     * Evicts the big file (what the previous mode left must not fill the cgroup) and the hot set, until mincore sees
     * none of either: a page left cached stays charged where it was first read, outside the group. Rounds, because
     * fadvise(DONTNEED) skips folios it cannot take at that instant; once (in a test run, clients stopped) one hot
     * file's pages survived two seconds of rounds, cause not found, hence up to five seconds before failing.
     */
    private void evictAndCheck() throws IOException, InterruptedException {
        long hotLeft = 0;
        long bigLeft = 0;
        for (int round = 0; round < 50; round++) {
            PageCache.evict(bigFile);
            hot.evict();
            hotLeft = hot.residency().residentPages();
            bigLeft = PageCache.residency(bigFile).residentPages();
            if (hotLeft == 0 && bigLeft == 0) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException("still cached after fadvise(DONTNEED) for 5 s: " + hotLeft + " hot pages ("
                + hot.cachedFiles() + "), " + bigLeft + " pages of the big file (mapped or dirty?); they would stay "
                + "charged outside the cgroup");
    }

    /** Half a period: a sample ending just past the after window still belongs to it. */
    private static final long PERIOD_SLACK = HotSetSampler.PERIOD_NANOS / 2;

    /** The progress line's recovery: to the sampling's 0.25 s resolution, not a double's nine digits ("6.823743819 s"). */
    static String recoveryPhrase(Double seconds) {
        return seconds == null ? "not within the cap" : String.format(Locale.ROOT, "after %.2f s", seconds);
    }

    /** Residency (last sample) and rate (last second) back within the tolerance of before. */
    private boolean recovered(List<Sample> after, Sample.Span before) {
        List<Sample> recent = after.subList(Math.max(0, after.size() - RECOVERY_SAMPLES), after.size());
        Sample.Span r = Sample.Span.of(recent);
        return r.lastResidency() >= before.meanResidency() * (1 - o.tolerance)
                && r.requestsPerSecond() >= before.requestsPerSecond() * (1 - o.tolerance);
    }

    /** One whole read of the big file, as the reader reports it: {@code pass BYTES NANOS DIGEST}. */
    record Pass(long bytes, long nanos, long digest) {
        static Pass parse(String line) throws IOException {
            String[] f = line.split(" ");
            try {
                if (f.length == 4 && f[0].equals("pass")) {
                    return new Pass(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
                }
            } catch (NumberFormatException e) {
                // told below
            }
            throw new IOException("unexpected line from the big reader: " + line);
        }
    }

    /** The big reader's passes so far, summed; verified while every pass had the expected digest. */
    record ReadResult(long bytes, long nanos, int passes, boolean verified) {
        static final ReadResult NONE = new ReadResult(0, 0, 0, true);

        ReadResult plus(Pass pass, long expectedDigest) {
            return new ReadResult(bytes + pass.bytes(), nanos + pass.nanos(), passes + 1,
                    verified && pass.digest() == expectedDigest);
        }

        double mibPerSec() {
            return nanos == 0 ? 0 : Sizes.mib(bytes) / (nanos / 1e9);
        }
    }
}
