package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.jmh.profile.SyscallProfiler;
import io.xferbench.jmh.profile.SyscallResults;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link FileToSocketBenchmark} for real (JMH, one fork per method, 1 MiB, one short warm-up and one
 * 1 s measurement iteration) with the syscall profiler, and checks what the kernel counted against what each
 * method is: transfer-to is sendfile, stream is read/write per 64 KiB buffer, io-uring submits SQEs instead of
 * calling sendfile, mmap reads nothing. Skipped with the reason where perf cannot count (fails instead when
 * {@code XFERBENCH_REQUIRE_ALL_METHODS=1}); a method unavailable here is skipped the same way.
 */
class FileToSocketSmokeTest {
    private static final long SIZE = 1 << 20;
    private static final List<String> METHODS = List.of("transfer-to", "stream", "io-uring", "mmap");

    private static final Map<String, RunResult> results = new HashMap<>();

    @BeforeAll
    static void runJmh() throws Exception {
        if (!PerfSyscallCounter.availability().isAvailable()) {
            return; // each test says why
        }
        String[] available = METHODS.stream()
                .filter(id -> DownloadMethods.byId(id).orElseThrow().availability().isAvailable())
                .toArray(String[]::new);
        if (available.length == 0) {
            return;
        }
        // Kernel counts, not timings, are asserted: another JMH run on the machine does not matter.
        System.setProperty("jmh.ignoreLock", "true");
        Options options = new OptionsBuilder()
                .include(Pattern.quote(FileToSocketBenchmark.class.getName()) + "\\.transfer$")
                .param("method", available)
                .param("size", Long.toString(SIZE))
                .param("buffer", "65536")
                .forks(1)
                .warmupIterations(1)
                .warmupTime(TimeValue.milliseconds(500))
                .measurementIterations(1)
                .measurementTime(TimeValue.seconds(1))
                .addProfiler(SyscallProfiler.class)
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> run = new Runner(options).run();
        for (RunResult r : run) {
            results.put(r.getParams().getParam("method"), r);
        }
    }

    /** The result for an available method, or the test is skipped/failed with the reason it has none. */
    private static RunResult result(String method) {
        MethodAssumptions.assumeAvailable("syscall smoke test", PerfSyscallCounter.availability());
        MethodAssumptions.assumeAvailable(method, DownloadMethods.byId(method).orElseThrow().availability());
        RunResult r = results.get(method);
        assertThat(r).as("JMH result for " + method).isNotNull();
        assertThat(r.getPrimaryResult().getScore()).as(method + " ops/s").isPositive();
        assertThat(r.getSecondaryResults()).as(method + " syscall results").containsKey(SyscallResults.TOTAL);
        return r;
    }

    /** Calls per op of one syscall; a syscall that never happened has no result, i.e. 0. */
    private static double perOp(RunResult r, String syscall) {
        Result s = r.getSecondaryResults().get(SyscallResults.perOp(syscall));
        return s == null ? 0 : s.getScore();
    }

    private static double secondary(RunResult r, String label) {
        Result s = r.getSecondaryResults().get(label);
        return s == null ? 0 : s.getScore();
    }

    @Test
    void transferToIsSendfileWithoutReadOrWrite() {
        RunResult r = result("transfer-to");
        assertThat(perOp(r, "sendfile64")).as("sendfile64/op").isGreaterThanOrEqualTo(1.0);
        assertThat(perOp(r, "read")).as("read/op").isLessThan(1.0);
        assertThat(perOp(r, "write")).as("write/op").isLessThan(1.0);
        // A whole 1 MiB op moves 1 MiB: the aux counter agrees with ops/s.
        assertThat(secondary(r, "MiB")).isCloseTo(r.getPrimaryResult().getScore(), org.assertj.core.data.Percentage.withPercentage(0.1));
    }

    @Test
    void streamReadsAndWritesOncePerBuffer() {
        RunResult r = result("stream");
        // 1 MiB through a 64 KiB byte[]: 16 reads, at least 16 writes (more if the socket takes less).
        assertThat(perOp(r, "read")).as("read/op").isBetween(15.0, 20.0);
        assertThat(perOp(r, "write")).as("write/op").isGreaterThanOrEqualTo(16.0);
    }

    @Test
    void ioUringSubmitsInsteadOfSendfile() {
        RunResult r = result("io-uring");
        assertThat(secondary(r, SyscallResults.IO_URING)).as("io_uring submissions/op").isPositive();
        assertThat(perOp(r, "io_uring_enter")).as("io_uring_enter/op").isPositive();
        assertThat(perOp(r, "sendfile64")).as("sendfile64/op").isLessThan(0.05);
    }

    @Test
    void mmapMapsAndReadsNothing() {
        RunResult r = result("mmap");
        assertThat(perOp(r, "read")).as("read/op").isLessThan(1.0);
        assertThat(perOp(r, "mmap")).as("mmap/op").isGreaterThanOrEqualTo(1.0);
        assertThat(perOp(r, "munmap")).as("munmap/op").isGreaterThanOrEqualTo(1.0);
    }
}
