package io.xferbench.jmh.profile;

import static io.xferbench.jmh.profile.JmhFixtures.benchmark;
import static io.xferbench.jmh.profile.JmhFixtures.iteration;
import static io.xferbench.jmh.profile.JmhFixtures.measurement;
import static io.xferbench.jmh.profile.JmhFixtures.warmup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.Result;

/**
 * The profiler's CPU per GiB: each thread's own difference (an SQ thread that exits inside the window does not make
 * the process's CPU shrink), the SQPOLL threads' share counted in the total and shown apart, /proc read outside
 * perf's counting window.
 */
class CpuPerGibTest {
    private static final long GIB = 1L << 30;

    @Test
    void anSqThreadThatExitsInTheWindowIsCountedUpToItsExit() {
        // JMH closes the ring (its SQ thread 9 exits) before the profiler's last look: the process's CPU, which
        // keeps an exited thread's time, less the other threads' (1, and 12 that started in the window).
        ProcessCpu.Sample before = new ProcessCpu.Sample(10_000L, Map.of(1L, 100L, 9L, 200L), Set.of(9L));
        ProcessCpu.Sample after = new ProcessCpu.Sample(11_000L, Map.of(1L, 300L, 12L, 50L), Set.of());
        assertThat(before.until(after)).isEqualTo(new ProcessCpu.Usage(1_000, 1_000 - 200 - 50, 1));
    }

    @Test
    void withoutAnSqThreadAllIsTheProcesssOwn() {
        ProcessCpu.Sample before = new ProcessCpu.Sample(10_000L, Map.of(1L, 100L, 7L, 5_000L), Set.of());
        ProcessCpu.Sample after = new ProcessCpu.Sample(10_400L, Map.of(1L, 500L), Set.of());
        assertThat(before.until(after)).isEqualTo(new ProcessCpu.Usage(400, 0, 0));
    }

    @Test
    void theSqPollShareIsCountedInTheTotalAndShownApart() {
        // Between iterations the process runs too (JMH's bookkeeping, @Setup): not counted.
        List<Map<String, Double>> rows = run(List.of(
                sample(0, 0), sample(600_000_000L, 200_000_000L),
                sample(900_000_000L, 250_000_000L), sample(1_200_000_000L, 350_000_000L),
                sample(1_300_000_000L, 360_000_000L), sample(1_600_000_000L, 460_000_000L)));
        // 3 iterations × 8 ops × 64 MiB = 1.5 GiB; 1.2 s of CPU while measuring, 0.4 s of it the SQ thread's.
        assertThat(rows.getLast()).containsOnlyKeys(CpuResults.PER_GIB, CpuResults.SQPOLL_PER_GIB);
        assertThat(rows.getLast().get(CpuResults.PER_GIB)).isCloseTo(1200.0 / 1.5, within(1e-9));
        assertThat(rows.getLast().get(CpuResults.SQPOLL_PER_GIB)).isCloseTo(400.0 / 1.5, within(1e-9));
    }

    @Test
    void noSqPollColumnWithoutAnSqPollThread() {
        List<Map<String, Double>> rows = run(List.of(sample(0, -1), sample(300_000_000L, -1),
                sample(300_000_000L, -1), sample(500_000_000L, -1), sample(600_000_000L, -1), sample(700_000_000L, -1)));
        assertThat(rows.getLast()).containsOnlyKeys(CpuResults.PER_GIB);
        assertThat(rows.getLast().get(CpuResults.PER_GIB)).isCloseTo(600.0 / 1.5, within(1e-9));
    }

    @Test
    void procIsReadWhilePerfDoesNotCount() {
        FakeCounter perf = new FakeCounter();
        Deque<ProcessCpu.Sample> samples = new ArrayDeque<>(List.of(sample(0, -1), sample(1, -1), sample(1, -1),
                sample(2, -1), sample(2, -1), sample(3, -1)));
        // Reading /proc makes syscalls: the fake makes one read per sample, which perf would count if enabled.
        SyscallProfiler profiler = new SyscallProfiler(() -> perf, () -> {
            perf.calls("read", 1);
            return samples.pop();
        }, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<Result> results = new ArrayList<>();
        BenchmarkParams bp = benchmark(Long.toString(64L << 20), 1);
        for (int i = 0; i < JmhFixtures.MEASUREMENT; i++) {
            IterationParams ip = measurement();
            profiler.beforeIteration(bp, ip);
            results.addAll(profiler.afterIteration(bp, ip, iteration(bp, ip, 8)));
        }
        Map<String, Double> scores = results.stream().collect(Collectors.toMap(Result::getLabel, Result::getScore));
        assertThat(scores).containsKey(CpuResults.PER_GIB).doesNotContainKey(SyscallResults.perOp("read"));
        assertThat(scores.get(SyscallResults.TOTAL)).isZero();
    }

    /** One thread of {@code processNanos}, plus an SQ thread of {@code sqPollNanos} unless that is negative. */
    private static ProcessCpu.Sample sample(long processNanos, long sqPollNanos) {
        return sqPollNanos < 0
                ? new ProcessCpu.Sample(processNanos, Map.of(1L, processNanos), Set.of())
                : new ProcessCpu.Sample(processNanos, Map.of(1L, processNanos - sqPollNanos, 2L, sqPollNanos), Set.of(2L));
    }

    /**
     * A fork without perf (CPU results come all the same): warm-up, then the measurement iterations of 8 ops of
     * 64 MiB, CPU sampled from the list before and after each.
     */
    private static List<Map<String, Double>> run(List<ProcessCpu.Sample> list) {
        Deque<ProcessCpu.Sample> samples = new ArrayDeque<>(list);
        SyscallProfiler profiler = new SyscallProfiler(() -> {
            throw new java.io.IOException("perf is not installed");
        }, samples::pop, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        BenchmarkParams bp = benchmark(Long.toString(64L << 20), 1);
        List<Map<String, Double>> rows = new ArrayList<>();
        for (int i = 0; i < JmhFixtures.WARMUP; i++) {
            profiler.beforeIteration(bp, warmup());
            assertThat(profiler.afterIteration(bp, warmup(), iteration(bp, warmup(), 8))).isEmpty();
        }
        for (int i = 0; i < JmhFixtures.MEASUREMENT; i++) {
            IterationParams ip = measurement();
            profiler.beforeIteration(bp, ip);
            rows.add(profiler.afterIteration(bp, ip, iteration(bp, ip, 8)).stream()
                    .collect(Collectors.toMap(Result::getLabel, Result::getScore)));
        }
        assertThat(rows.subList(0, rows.size() - 1)).allMatch(Map::isEmpty);
        return rows;
    }
}
