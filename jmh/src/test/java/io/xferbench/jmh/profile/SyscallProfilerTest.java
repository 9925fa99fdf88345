package io.xferbench.jmh.profile;

import static io.xferbench.jmh.profile.JmhFixtures.benchmark;
import static io.xferbench.jmh.profile.JmhFixtures.iteration;
import static io.xferbench.jmh.profile.JmhFixtures.measurement;
import static io.xferbench.jmh.profile.JmhFixtures.warmup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** The profiler's bookkeeping with a fake perf: what is counted, what it is divided by, how forks combine. */
class SyscallProfilerTest {
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    /** One fork's JMH run: warm-up then measurement iterations of {@code opsPerIteration} ops, each making {@code readsPerOp} reads. */
    private List<IterationResult> fork(BenchmarkParams bp, FakeCounter perf, long opsPerIteration, long readsPerOp) {
        SyscallProfiler profiler = new SyscallProfiler(() -> perf, out);
        for (int i = 0; i < JmhFixtures.WARMUP; i++) {
            IterationParams ip = warmup();
            profiler.beforeIteration(bp, ip);
            perf.calls("read", 1_000_000); // warm-up traffic: must never be counted
            IterationResult r = iteration(bp, ip, opsPerIteration);
            assertThat(profiler.afterIteration(bp, ip, r)).isEmpty();
        }
        List<IterationResult> measured = new ArrayList<>();
        for (int i = 0; i < JmhFixtures.MEASUREMENT; i++) {
            IterationParams ip = measurement();
            perf.calls("read", 7777); // between iterations (JMH's own bookkeeping): not counted
            profiler.beforeIteration(bp, ip);
            perf.calls("read", opsPerIteration * readsPerOp);
            perf.calls("write", opsPerIteration * readsPerOp);
            perf.calls("munmap", 0);
            perf.unnamedCalls(opsPerIteration);
            perf.switches(opsPerIteration / 10);
            IterationResult r = iteration(bp, ip, opsPerIteration);
            Collection<? extends Result> results = profiler.afterIteration(bp, ip, r);
            if (i < JmhFixtures.MEASUREMENT - 1) {
                assertThat(results).as("results only after the last measurement iteration").isEmpty();
            }
            r.addResults(results);
            measured.add(r);
        }
        return measured;
    }

    private static Map<String, Double> scores(Collection<? extends Result> results) {
        return results.stream().collect(Collectors.toMap(Result::getLabel, Result::getScore));
    }

    @Test
    void countsMeasurementIterationsOnlyAndDividesByTheirOps() {
        BenchmarkParams bp = benchmark("1048576", 1);
        FakeCounter perf = new FakeCounter();
        List<IterationResult> measured = fork(bp, perf, 1000, 16);

        assertThat(perf.enables).isEqualTo(JmhFixtures.MEASUREMENT);
        assertThat(perf.stopped).isTrue();
        Map<String, Double> s = scores(measured.get(measured.size() - 1).getSecondaryResults().values());
        // 16 reads + 16 writes + 1 unnamed per op; munmap never happened so it is not reported.
        assertThat(s).containsEntry(SyscallResults.perOp("read"), 16.0)
                .containsEntry(SyscallResults.perOp("write"), 16.0)
                .containsEntry(SyscallResults.perOp("other"), 1.0)
                .containsEntry(SyscallResults.TOTAL, 33.0)
                .containsEntry(SyscallResults.CTXSW, 0.1)
                .containsEntry(SyscallResults.IO_URING, 0.0)
                .doesNotContainKey(SyscallResults.perOp("munmap"));
        // 1 MiB per op: syscalls/MiB equals syscalls/op.
        assertThat(s.get(SyscallResults.PER_MIB)).isCloseTo(33.0, within(1e-9));
        assertThat(s).containsKey(SyscallResults.PER_SECOND);
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void bytesPerOpComeFromTheSizeParam() {
        assertThat(SyscallProfiler.bytesPerOp(benchmark("67108864", 1))).hasValue(67108864);
        assertThat(SyscallProfiler.bytesPerOp(benchmark(null, 1))).isEmpty();
        assertThat(SyscallProfiler.bytesPerOp(benchmark("64KiB", 1))).isEmpty();

        FakeCounter perf = new FakeCounter();
        List<IterationResult> measured = fork(benchmark("67108864", 1), perf, 10, 512);
        // 64 MiB per op: (512 + 512 + 1) calls per op / 64 MiB.
        assertThat(measured.get(measured.size() - 1).getSecondaryResults().get(SyscallResults.PER_MIB).getScore())
                .isCloseTo(1025.0 / 64, within(1e-9));

        List<IterationResult> noSize = fork(benchmark(null, 1), new FakeCounter(), 10, 1);
        assertThat(noSize.get(noSize.size() - 1).getSecondaryResults()).doesNotContainKey(SyscallResults.PER_MIB);
    }

    @Test
    void forksAggregateAsTotalCallsOverTotalOps() {
        BenchmarkParams bp = benchmark("1048576", 3);
        // Fork 1: 100 ops per iteration at 20 reads/op; forks 2 and 3: 300 ops per iteration at 10 reads/op.
        BenchmarkResult fork1 = new BenchmarkResult(bp, fork(bp, new FakeCounter(), 100, 20));
        BenchmarkResult fork2 = new BenchmarkResult(bp, fork(bp, new FakeCounter(), 300, 10));
        BenchmarkResult fork3 = new BenchmarkResult(bp, fork(bp, new FakeCounter(), 300, 10));
        RunResult run = new RunResult(bp, List.of(fork1, fork2, fork3));

        Result reads = run.getSecondaryResults().get(SyscallResults.perOp("read"));
        // (20 × 300 + 2 × 10 × 900) / (300 + 2 × 900) = 11.43; a mean of the forks' ratios would say 13.33, and
        // JMH's ScalarResult would add zeros for the iterations that carry no result (÷ 3 here).
        assertThat(reads.getScore()).isCloseTo(24000.0 / 2100, within(1e-9));
        assertThat(reads).isInstanceOf(RatioResult.class);
        assertThat(((RatioResult) reads).parts()).isEqualTo(3);
        assertThat(reads.getScoreError()).isNotNaN().isPositive();
        assertThat(run.getSecondaryResults().get(SyscallResults.TOTAL).getScore())
                .isCloseTo((41.0 * 300 + 2 * 21.0 * 900) / 2100, within(1e-9));
        // The primary result is untouched: JMH's own ops/s over all iterations of all forks.
        assertThat(run.getPrimaryResult().getSampleCount()).isEqualTo(3L * JmhFixtures.MEASUREMENT);
    }

    @Test
    void withoutPerfItSaysWhyOnceAndReportsNothing() {
        AtomicInteger attempts = new AtomicInteger();
        SyscallProfiler profiler = new SyscallProfiler(() -> {
            attempts.incrementAndGet();
            throw new IOException("perf is not installed (apt-get install linux-perf)");
        }, out);
        BenchmarkParams bp = benchmark("1048576", 1);
        for (int i = 0; i < JmhFixtures.MEASUREMENT; i++) {
            profiler.beforeIteration(bp, measurement());
            assertThat(profiler.afterIteration(bp, measurement(), iteration(bp, measurement(), 100))).isEmpty();
        }
        assertThat(attempts).hasValue(1);
        assertThat(printed.toString(StandardCharsets.UTF_8).lines().toList())
                .containsExactly("# syscalls profiler: no syscall counts in this fork: perf is not installed (apt-get install linux-perf)");
    }

    @Test
    void perfFailingMidwayDropsTheCountsAndClosesPerf() {
        FakeCounter perf = new FakeCounter();
        perf.failDisable = new IOException("perf did not acknowledge 'disable' (perf exited)");
        SyscallProfiler profiler = new SyscallProfiler(() -> perf, out);
        BenchmarkParams bp = benchmark("1048576", 1);
        for (int i = 0; i < JmhFixtures.MEASUREMENT; i++) {
            profiler.beforeIteration(bp, measurement());
            assertThat(profiler.afterIteration(bp, measurement(), iteration(bp, measurement(), 100))).isEmpty();
        }
        assertThat(perf.closed).isTrue();
        assertThat(perf.stopped).isFalse();
        assertThat(perf.enables).isEqualTo(1);
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("perf exited").hasLineCount(1);
    }

    @Test
    void warnsWhenThereIsNoWarmupToKeepSetupOutOfTheCounts() {
        new SyscallProfiler(FakeCounter::new, out).beforeIteration(benchmark("1", 1, 0), measurement());
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("no warm-up iteration").contains("-wi 1");
    }
}
