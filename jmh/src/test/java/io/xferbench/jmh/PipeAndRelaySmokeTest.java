package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.pipe.RawSplice;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.jmh.profile.SyscallProfiler;
import io.xferbench.jmh.profile.SyscallResults;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@link PipeSetupBenchmark} (thread-local pooled pipe, 4 KiB sends) and {@link ProxyRelayBenchmark} (the copy relay
 * with a 1 KiB buffer, 1 MiB bodies, through the feeder and drain processes) for real, one short fork each (about
 * 9 s apiece), with the syscall profiler: what the kernel counted must be what the code is. The fresh-pipe rows
 * (pipe2 + 2 close per op) are in docs/jmh.md; one fork fewer here. Skipped with the reason where perf or the native
 * shim cannot run (fails instead under {@code XFERBENCH_REQUIRE_ALL_METHODS=1}).
 */
class PipeAndRelaySmokeTest {
    private static final Map<String, RunResult> results = new HashMap<>();

    @BeforeAll
    static void runJmh() throws Exception {
        if (!PerfSyscallCounter.availability().isAvailable() || !RawSplice.availability().isAvailable()) {
            return; // each test says why
        }
        System.setProperty("jmh.ignoreLock", "true");
        for (RunResult r : new Runner(quick(PipeSetupBenchmark.class, "transfer")
                .param("pipes", "thread-local").param("pipeSize", "65536").param("size", "4096").build()).run()) {
            results.put(r.getParams().getParam("pipes"), r);
        }
        for (RunResult r : new Runner(quick(ProxyRelayBenchmark.class, "relay")
                .param("relay", "copy").param("buffer", "1024").param("size", "1048576").build()).run()) {
            results.put("copy", r);
        }
    }

    private static ChainedOptionsBuilder quick(Class<?> benchmark, String method) {
        return new OptionsBuilder()
                .include(Pattern.quote(benchmark.getName()) + "\\." + method + "$")
                .forks(1)
                .warmupIterations(1)
                .warmupTime(TimeValue.milliseconds(300))
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(700))
                .addProfiler(SyscallProfiler.class)
                .shouldFailOnError(true);
    }

    private static RunResult result(String key, String what, Availability availability) {
        MethodAssumptions.assumeAvailable("syscall smoke test", PerfSyscallCounter.availability());
        MethodAssumptions.assumeAvailable(what, availability);
        RunResult r = results.get(key);
        assertThat(r).as("JMH result for " + key).isNotNull();
        assertThat(r.getPrimaryResult().getScore()).as(key + " ops/s").isPositive();
        assertThat(r.getSecondaryResults()).containsKey(SyscallResults.TOTAL);
        return r;
    }

    private static double perOp(RunResult r, String syscall) {
        Result s = r.getSecondaryResults().get(SyscallResults.perOp(syscall));
        return s == null ? 0 : s.getScore();
    }

    @Test
    void aThreadLocalPooledPipeCostsOnlyTheSplices() {
        RunResult r = result("thread-local", "raw splice", RawSplice.availability());
        assertThat(perOp(r, "pipe2")).as("pipe2/op").isLessThan(0.01);
        assertThat(perOp(r, "close")).as("close/op").isLessThan(0.01);
        assertThat(perOp(r, "splice")).as("splice/op: file -> pipe, pipe -> socket").isBetween(1.99, 2.1);
    }

    @Test
    void theCopyRelayReadsAndWritesOncePerBufferAndNothingIsInFlightBetweenOps() {
        RunResult r = result("copy", "copy relay", RelayMethods.byId("copy").orElseThrow().availability());
        // 1 MiB through a 1 KiB buffer: 1024 reads, as many writes (more only if the socket took less).
        assertThat(perOp(r, "read")).as("read/op").isBetween(1024.0, 1040.0);
        assertThat(perOp(r, "write")).as("write/op").isBetween(1024.0, 1040.0);
    }
}
