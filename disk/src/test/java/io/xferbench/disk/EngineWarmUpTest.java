package io.xferbench.disk;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.ProcessCpu;
import io.xferbench.core.read.LatencySink;
import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.read.ReadOutcome;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineWarmUpTest {
    private static final long ROUND_NANOS = EngineWarmUp.WINDOW_NANOS; // one round closes one window
    private static final ReadSpec SHAPE = new ReadSpec(Path.of("/nonexistent"), 16 * Sizes.MiB, ReadPattern.SEQUENTIAL,
            4096, 32, 0, 7); // 4,096 reads a round

    /**
     * An engine that reads nothing: each round moves the test's clock by one window and spends 500 ms of process CPU,
     * of which the compiler threads take what the script gives that round (µs).
     */
    private static final class Script implements ReadEngine {
        final List<ReadSpec> rounds = new ArrayList<>();
        final double[] compilerPerRound;
        long now;
        double cpu;
        double jit;

        Script(double... compilerPerRound) {
            this.compilerPerRound = compilerPerRound;
        }

        EngineWarmUp warmUp(Duration max) {
            return new EngineWarmUp(max, () -> cpu, () -> jit, () -> now);
        }

        @Override
        public String name() {
            return "script";
        }

        @Override
        public String fioEngine() {
            return null;
        }

        @Override
        public boolean direct() {
            return false;
        }

        @Override
        public ReadOutcome read(ReadSpec spec, LatencySink latencies) {
            int i = rounds.size();
            rounds.add(spec);
            now += ROUND_NANOS;
            cpu += 500_000;
            jit += i < compilerPerRound.length ? compilerPerRound[i] : 0;
            return new ReadOutcome(spec.span() / spec.blockSize(), spec.span(), 0, ROUND_NANOS);
        }
    }

    @Test
    void endsAfterTwoQuietWindowsOnceEnoughWasReadAndACompileStartsTheCountAgain() throws Exception {
        // 4,096 reads a round: 20,000 are reached in round 5. Rounds 1-2 compile hard, 3 is quiet, 4 compiles (the
        // count starts again), 5 and 6 are quiet.
        Script s = new Script(200_000, 80_000, 0, 60_000, ProcessCpu.MICROS_PER_TICK, 0);
        EngineWarmUp.Outcome o = s.warmUp(Duration.ofSeconds(10)).run(s, SHAPE);

        assertThat(s.rounds).hasSize(6).allMatch(r -> r.equals(SHAPE));
        assertThat(o.settled()).isTrue();
        assertThat(o.reads()).isEqualTo(6 * 4096);
        assertThat(o.seconds()).isEqualTo(6 * ROUND_NANOS / 1e9);
    }

    @Test
    void quietWindowsDoNotEndItBeforeTheMinimumReads() throws Exception {
        Script s = new Script(); // never compiles: only the minimum keeps it going
        EngineWarmUp.Outcome o = s.warmUp(Duration.ofSeconds(10)).run(s, SHAPE);

        assertThat(o.settled()).isTrue();
        assertThat(o.reads()).isGreaterThanOrEqualTo(EngineWarmUp.MIN_READS).isLessThan(EngineWarmUp.MIN_READS + 4096);
    }

    @Test
    void largeBlocksNeedOnlyTheMinimumBytes() throws Exception {
        ReadSpec mib = new ReadSpec(Path.of("/nonexistent"), 32 * Sizes.MiB, ReadPattern.SEQUENTIAL, (int) Sizes.MiB,
                32, 0, 7); // 32 reads a round: 256 MiB in 8 rounds
        Script s = new Script();
        EngineWarmUp.Outcome o = s.warmUp(Duration.ofSeconds(10)).run(s, mib);

        assertThat(s.rounds).hasSize(8);
        assertThat(o.settled()).isTrue();
    }

    @Test
    void aJitThatNeverQuietsDownEndsAtTheBoundUnsettled() throws Exception {
        double[] busy = new double[100];
        java.util.Arrays.fill(busy, 3 * ProcessCpu.MICROS_PER_TICK); // 30 ms of 500: over 2 % and over a tick
        Script s = new Script(busy);
        EngineWarmUp.Outcome o = s.warmUp(Duration.ofSeconds(2)).run(s, SHAPE);

        assertThat(o.settled()).isFalse();
        assertThat(s.rounds).hasSize(8); // 8 rounds of 250 ms
        assertThat(o.seconds()).isEqualTo(2.0);
    }

    @Test
    void zeroRunsOnceAndDoesNotClaimSettled() throws Exception {
        Script s = new Script();
        EngineWarmUp.Outcome o = s.warmUp(Duration.ZERO).run(s, SHAPE);

        assertThat(s.rounds).hasSize(1);
        assertThat(o.settled()).isFalse();
    }

    @Test
    void theShapeIsTheRowsOwnOverTheFilesFirst16MiB() {
        Path f = Path.of("/nonexistent");
        ReadSpec sequential = new ReadSpec(f, Sizes.GiB, ReadPattern.SEQUENTIAL, 4096, 32, 0, 42);
        assertThat(EngineWarmUp.shapeOf(sequential))
                .isEqualTo(new ReadSpec(f, 16 * Sizes.MiB, ReadPattern.SEQUENTIAL, 4096, 32, 5_000, 7));

        ReadSpec random = new ReadSpec(f, Sizes.GiB, ReadPattern.RANDOM, (int) Sizes.MiB, 8, 1024, 42);
        assertThat(EngineWarmUp.shapeOf(random)) // a stripe per thread at least; 64 random blocks of 1 MiB
                .isEqualTo(new ReadSpec(f, 16 * Sizes.MiB, ReadPattern.RANDOM, (int) Sizes.MiB, 8, 64, 7));

        ReadSpec wide = new ReadSpec(f, Sizes.GiB, ReadPattern.SEQUENTIAL, (int) Sizes.MiB, 32, 0, 42);
        assertThat(EngineWarmUp.shapeOf(wide).span()).isEqualTo(32 * Sizes.MiB);

        ReadSpec small = new ReadSpec(f, 8 * 4096, ReadPattern.SEQUENTIAL, 4096, 1, 0, 42);
        assertThat(EngineWarmUp.shapeOf(small).span()).isEqualTo(8 * 4096); // never past the row's own span
    }
}
