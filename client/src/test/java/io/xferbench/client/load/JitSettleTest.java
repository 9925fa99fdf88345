package io.xferbench.client.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class JitSettleTest {
    /** Slices whose compiler threads take these shares of 1 s of server CPU, one per slice; records each slice's length. */
    private static final class Scripted implements JitSettle.Slice {
        final Deque<Double> shares;
        int runs;

        Scripted(Double... shares) {
            this.shares = new ArrayDeque<>(List.of(shares));
        }

        @Override
        public ServerSampler.ServerFigures run(Duration length) {
            assertThat(length).isEqualTo(JitSettle.SLICE);
            runs++;
            double share = shares.isEmpty() ? 0.5 : shares.poll();
            return Double.isNaN(share) ? new ServerSampler.ServerFigures(0, 1, 0)
                    : new ServerSampler.ServerFigures(1_000_000, 1, share * 1_000_000);
        }
    }

    @Test
    void stopsAfterThreeQuietSlicesInARowAndABurstStartsTheCountAgain() throws Exception {
        Scripted slices = new Scripted(0.40, 0.02, 0.01, 0.30, 0.04, 0.00, 0.03, 0.20);

        JitSettle.Outcome o = JitSettle.settle(slices, Duration.ofMinutes(1), 0.05);

        assertThat(o.settled()).isTrue();
        assertThat(o.slices()).isEqualTo(7).isEqualTo(slices.runs);
        assertThat(o.lastShare()).isEqualTo(0.03);
    }

    @Test
    void aServerStillCompilingWhenTheBudgetEndsIsNotSettled() throws Exception {
        Scripted slices = new Scripted(0.02, 0.02); // then 0.5 for ever

        JitSettle.Outcome o = JitSettle.settle(slices, Duration.ZERO, 0.05);

        assertThat(o.settled()).isFalse();
        assertThat(o.slices()).isEqualTo(1); // at least one slice, even with no budget left
        assertThat(o.lastShare()).isEqualTo(0.02);
    }

    @Test
    void aSliceThatCouldNotRunEndsTheSettle() throws Exception {
        int[] runs = {0};
        JitSettle.Outcome o = JitSettle.settle(length -> {
            runs[0]++;
            return null;
        }, Duration.ofMinutes(1), 0.05);

        assertThat(runs[0]).isEqualTo(1);
        assertThat(o.settled()).isFalse();
        assertThat(o.lastShare()).isNaN();
    }

    @Test
    void aSliceWithoutServerCpuIsNotQuiet() throws Exception {
        Scripted slices = new Scripted(0.0, Double.NaN, 0.0, 0.0, 0.0);

        JitSettle.Outcome o = JitSettle.settle(slices, Duration.ofMinutes(1), 0.05);

        assertThat(o.settled()).isTrue();
        assertThat(o.slices()).isEqualTo(5);
    }
}
