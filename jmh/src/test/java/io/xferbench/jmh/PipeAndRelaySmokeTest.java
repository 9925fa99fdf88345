package io.xferbench.jmh;

import static io.xferbench.jmh.SyscallSmoke.perOp;
import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.pipe.RawSplice;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
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
        if (!SyscallSmoke.canCount() || !RawSplice.availability().isAvailable()) {
            return; // each test says why
        }
        results.putAll(SyscallSmoke.run(quick(PipeSetupBenchmark.class, "transfer")
                .param("pipes", "thread-local").param("pipeSize", "65536").param("size", "4096"), "pipes"));
        results.putAll(SyscallSmoke.run(quick(ProxyRelayBenchmark.class, "relay")
                .param("relay", "copy").param("buffer", "1024").param("size", "1048576"), "relay"));
    }

    private static ChainedOptionsBuilder quick(Class<?> benchmark, String method) {
        return SyscallSmoke.quick(benchmark, method, TimeValue.milliseconds(300), TimeValue.milliseconds(700));
    }

    @Test
    void aThreadLocalPooledPipeCostsOnlyTheSplices() {
        RunResult r = SyscallSmoke.result(results, "thread-local", "raw splice", RawSplice.availability());
        assertThat(perOp(r, "pipe2")).as("pipe2/op").isLessThan(0.01);
        assertThat(perOp(r, "close")).as("close/op").isLessThan(0.01);
        assertThat(perOp(r, "splice")).as("splice/op: file -> pipe, pipe -> socket").isBetween(1.99, 2.1);
    }

    @Test
    void theCopyRelayReadsAndWritesOncePerBufferAndNothingIsInFlightBetweenOps() {
        RunResult r = SyscallSmoke.result(results, "copy", "copy relay", RelayMethods.byId("copy").orElseThrow().availability());
        // 1 MiB through a 1 KiB buffer: 1024 reads, as many writes (more only if the socket took less).
        assertThat(perOp(r, "read")).as("read/op").isBetween(1024.0, 1040.0);
        assertThat(perOp(r, "write")).as("write/op").isBetween(1024.0, 1040.0);
    }
}
