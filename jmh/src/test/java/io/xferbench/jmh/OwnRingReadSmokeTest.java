package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.jmh.profile.CpuResults;
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

    private static final Map<String, RunResult> results = new HashMap<>();

    @BeforeAll
    static void runJmh() throws Exception {
        if (!PerfSyscallCounter.availability().isAvailable()) {
            return; // each test says why
        }
        String[] available = RINGS.stream().filter(r -> OwnRingReadBenchmark.refusal(r) == null).toArray(String[]::new);
        if (available.length == 0) {
            return;
        }
        // Kernel counts, not timings, are asserted: another JMH run on the machine does not matter.
        System.setProperty("jmh.ignoreLock", "true");
        Options options = new OptionsBuilder()
                .include(Pattern.quote(OwnRingReadBenchmark.class.getName()) + "\\.read$")
                .param("ring", available)
                .param("size", Long.toString(SIZE))
                .param("block", Integer.toString(BLOCK))
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
            results.put(r.getParams().getParam("ring"), r);
        }
    }

    private static RunResult result(String ring) {
        MethodAssumptions.assumeAvailable("syscall smoke test", PerfSyscallCounter.availability());
        MethodAssumptions.assumeAvailable(ring, new Availability(OwnRingReadBenchmark.refusal(ring)));
        RunResult r = results.get(ring);
        assertThat(r).as("JMH result for " + ring).isNotNull();
        assertThat(r.getPrimaryResult().getScore()).as(ring + " ops/s").isPositive();
        return r;
    }

    private static double secondary(RunResult r, String label) {
        Result s = r.getSecondaryResults().get(label);
        return s == null ? 0 : s.getScore();
    }

    @Test
    void thePlainRingEntersOncePerRead() {
        RunResult r = result("uring-raw");
        assertThat(secondary(r, SyscallResults.perOp("io_uring_enter"))).isBetween(READS, READS + 1);
        assertThat(secondary(r, SyscallResults.IO_URING)).isEqualTo(READS);
        assertThat(r.getSecondaryResults()).containsKey(CpuResults.PER_GIB).doesNotContainKey(CpuResults.SQPOLL_PER_GIB);
    }

    @Test
    void theFixedRingEntersOncePerReadToo() {
        RunResult r = result("uring-fixed");
        assertThat(secondary(r, SyscallResults.perOp("io_uring_enter"))).isBetween(READS, READS + 1);
        assertThat(secondary(r, SyscallResults.IO_URING)).isEqualTo(READS);
    }

    @Test
    void theSqPollRingBarelyEntersAndItsThreadsCpuIsCounted() {
        RunResult r = result("uring-sqpoll");
        // Wake-ups and long spins still enter on a loaded machine; far fewer than one per read.
        assertThat(secondary(r, SyscallResults.perOp("io_uring_enter"))).isLessThan(READS / 4);
        assertThat(secondary(r, SyscallResults.IO_URING)).isEqualTo(READS);
        double sqThread = secondary(r, CpuResults.SQPOLL_PER_GIB);
        assertThat(r.getSecondaryResults()).containsKey(CpuResults.SQPOLL_PER_GIB);
        assertThat(sqThread).isPositive().isLessThan(secondary(r, CpuResults.PER_GIB));
    }
}
