package io.xferbench.jmh;

import static io.xferbench.jmh.SyscallSmoke.perOp;
import static io.xferbench.jmh.SyscallSmoke.secondary;
import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.jmh.profile.SyscallResults;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
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

    private static Map<String, RunResult> results = Map.of();

    @BeforeAll
    static void runJmh() throws Exception {
        String[] available = METHODS.stream().filter(id -> availability(id).isAvailable()).toArray(String[]::new);
        if (!SyscallSmoke.canCount() || available.length == 0) {
            return; // each test says why
        }
        results = SyscallSmoke.run(SyscallSmoke.quick(FileToSocketBenchmark.class, "transfer",
                        TimeValue.milliseconds(500), TimeValue.seconds(1))
                .param("method", available)
                .param("size", Long.toString(SIZE))
                .param("buffer", "65536"), "method");
    }

    private static Availability availability(String method) {
        return DownloadMethods.byId(method).orElseThrow().availability();
    }

    private static RunResult result(String method) {
        return SyscallSmoke.result(results, method, method, availability(method));
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
