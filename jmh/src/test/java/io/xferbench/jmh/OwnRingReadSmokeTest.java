package io.xferbench.jmh;

import static io.xferbench.jmh.SyscallSmoke.perOp;
import static io.xferbench.jmh.SyscallSmoke.secondary;
import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.jmh.profile.CpuResults;
import io.xferbench.jmh.profile.SyscallResults;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link OwnRingReadBenchmark} for real (JMH, one fork per ring, 8 MiB in 64 reads of 128 KiB, one short
 * warm-up and one 1 s measurement iteration) with the syscall profiler: the plain and fixed rings enter once per read,
 * the SQPOLL ring's enters fall toward 0 while its SQ thread's CPU shows in a column of its own and within the
 * process's CPU per GiB. Skipped with the reason where perf cannot count or the kernel refuses a ring.
 */
class OwnRingReadSmokeTest {
    private static final long SIZE = 8 << 20;
    private static final int BLOCK = 128 << 10;
    private static final double READS = (double) SIZE / BLOCK;
    private static final List<String> RINGS = List.of("uring-raw", "uring-fixed", "uring-sqpoll");

    private static Map<String, RunResult> results = Map.of();

    @BeforeAll
    static void runJmh() throws Exception {
        String[] available = RINGS.stream().filter(r -> OwnRingReadBenchmark.refusal(r) == null).toArray(String[]::new);
        if (!SyscallSmoke.canCount() || available.length == 0) {
            return; // each test says why
        }
        results = SyscallSmoke.run(SyscallSmoke.quick(OwnRingReadBenchmark.class, "read",
                        TimeValue.milliseconds(500), TimeValue.seconds(1))
                .param("ring", available)
                .param("size", Long.toString(SIZE))
                .param("block", Integer.toString(BLOCK)), "ring");
    }

    private static RunResult result(String ring) {
        return SyscallSmoke.result(results, ring, ring, new Availability(OwnRingReadBenchmark.refusal(ring)));
    }

    @Test
    void thePlainRingEntersOncePerRead() {
        RunResult r = result("uring-raw");
        assertThat(perOp(r, "io_uring_enter")).isBetween(READS, READS + 1);
        assertThat(secondary(r, SyscallResults.IO_URING)).isEqualTo(READS);
        assertThat(r.getSecondaryResults()).containsKey(CpuResults.PER_GIB).doesNotContainKey(CpuResults.SQPOLL_PER_GIB);
    }

    @Test
    void theFixedRingEntersOncePerReadToo() {
        RunResult r = result("uring-fixed");
        assertThat(perOp(r, "io_uring_enter")).isBetween(READS, READS + 1);
        assertThat(secondary(r, SyscallResults.IO_URING)).isEqualTo(READS);
    }

    @Test
    void theSqPollRingBarelyEntersAndItsThreadsCpuIsCounted() {
        RunResult r = result("uring-sqpoll");
        // Wake-ups and long spins still enter on a loaded machine; far fewer than one per read.
        assertThat(perOp(r, "io_uring_enter")).isLessThan(READS / 4);
        assertThat(secondary(r, SyscallResults.IO_URING)).isEqualTo(READS);
        double sqThread = secondary(r, CpuResults.SQPOLL_PER_GIB);
        assertThat(r.getSecondaryResults()).containsKey(CpuResults.SQPOLL_PER_GIB);
        assertThat(sqThread).isPositive().isLessThan(secondary(r, CpuResults.PER_GIB));
    }
}
