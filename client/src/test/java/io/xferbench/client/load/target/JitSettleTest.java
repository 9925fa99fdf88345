package io.xferbench.client.load.target;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JitSettleTest {
    private static final long SECOND = JitSettle.SLICE_NANOS;

    /** A server whose CPU and compiler threads' CPU the test moves by hand, on a clock the test moves too. */
    private static final class Script {
        long now;
        double cpu;
        double jit;
        final JitSettle settle = new JitSettle(() -> cpu, () -> jit, 0.05, () -> now);

        /** One second passes in which the server spends a second of CPU, {@code share} of it compiling; asks done(). */
        boolean second(double share) {
            now += SECOND;
            cpu += 1_000_000;
            jit += share * 1_000_000;
            return settle.done();
        }
    }

    @Test
    void endsAfterThreeQuietSlicesInARowAndABurstStartsTheCountAgain() {
        Script s = new Script();
        s.settle.opened();

        assertThat(s.second(0.40)).isFalse();
        assertThat(s.second(0.02)).isFalse();
        assertThat(s.second(0.01)).isFalse();
        assertThat(s.second(0.30)).isFalse(); // a burst: the quiet count starts again
        assertThat(s.second(0.04)).isFalse();
        assertThat(s.second(0.00)).isFalse();
        assertThat(s.second(0.03)).isTrue();
        s.settle.closed();

        JitSettle.Outcome o = s.settle.outcome();
        assertThat(o.settled()).isTrue();
        assertThat(o.slices()).isEqualTo(7);
        assertThat(o.seconds()).isEqualTo(7.0);
        assertThat(o.lastShare()).isEqualTo(0.03, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aSliceIsJudgedOnlyOnceASecondHasPassed() {
        Script s = new Script();
        s.settle.opened();
        s.now += SECOND / 2;
        s.jit += 900_000; // compiling hard, but the slice is not over
        s.cpu += 1_000_000;

        assertThat(s.settle.done()).isFalse();
        assertThat(s.settle.outcome().slices()).isZero();
        s.now += SECOND / 2;
        assertThat(s.settle.done()).isFalse();
        assertThat(s.settle.outcome().slices()).isEqualTo(1);
        assertThat(s.settle.outcome().lastShare()).isEqualTo(0.9, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aServerStillCompilingWhenTheRunEndsIsNotSettled() {
        Script s = new Script();
        s.settle.opened();
        s.second(0.02);
        s.second(0.02);
        s.now += SECOND / 4;
        s.settle.closed(); // the budget ran out: the run ended by its own clock

        JitSettle.Outcome o = s.settle.outcome();
        assertThat(o.settled()).isFalse();
        assertThat(o.slices()).isEqualTo(2);
        assertThat(o.seconds()).isEqualTo(2.25);
    }

    @Test
    void aSliceWithoutServerCpuIsNotQuiet() {
        Script s = new Script();
        s.settle.opened();
        s.second(0.0);
        s.now += SECOND; // no CPU at all in this one
        assertThat(s.settle.done()).isFalse();
        assertThat(s.settle.outcome().lastShare()).isNaN();
        assertThat(s.second(0.0)).isFalse();
        assertThat(s.second(0.0)).isFalse();
        assertThat(s.second(0.0)).isTrue();
    }

    @Test
    void aRunThatNeverOpenedHasNoSlices() {
        JitSettle.Outcome o = new Script().settle.outcome();
        assertThat(o.slices()).isZero();
        assertThat(o.settled()).isFalse();
        assertThat(o.lastShare()).isNaN();
    }
}
