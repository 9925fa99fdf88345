package io.xferbench.jmh.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RatioResultTest {

    @Test
    void scoreIsNumeratorOverDenominator() {
        RatioResult r = new RatioResult("syscalls.read/op", 1600, 100, "calls/op");
        assertThat(r.getScore()).isEqualTo(16.0);
        assertThat(r.getScoreError()).isNaN();
        assertThat(r.getScoreConfidence()).containsExactly(16.0, 16.0);
        assertThat(r.getScoreUnit()).isEqualTo("calls/op");
    }

    @Test
    void noOpsGivesNoNumberRatherThanInfinity() {
        assertThat(new RatioResult("x", 5, 0, "calls/op").getScore()).isNaN();
    }

    @Test
    void aggregatesAsSumOverSumNotAsMeanOfRatios() {
        // Fork 1: 10 calls in 10 ops (1/op); fork 2: 30 calls in 10 ops (3/op) plus 20 ops more with none.
        RatioResult a = new RatioResult("syscalls.total/op", 10, 10, "calls/op");
        RatioResult b = new RatioResult("syscalls.total/op", 30, 30, "calls/op");
        RatioResult two = RatioResult.sum(List.of(a, b));
        assertThat(two.getScore()).isEqualTo(40.0 / 40.0);
        assertThat(two.parts()).isEqualTo(2);
        // JMH gives no error estimate below three samples.
        assertThat(two.getScoreError()).isNaN();

        RatioResult sum = RatioResult.sum(List.of(a, b, new RatioResult("syscalls.total/op", 20, 10, "calls/op")));
        assertThat(sum.getScore()).isEqualTo(60.0 / 50.0);
        assertThat(sum.getSampleCount()).isEqualTo(3);
        // With three parts (forks) there is one, from the spread of the parts' ratios.
        assertThat(sum.getScoreError()).isNotNaN().isPositive();
        double[] ci = sum.getScoreConfidence();
        assertThat(ci[0]).isCloseTo(sum.getScore() - sum.getScoreError(), within(1e-12));
        assertThat(ci[1]).isCloseTo(sum.getScore() + sum.getScoreError(), within(1e-12));
    }

    @Test
    void aggregatingAnAggregateKeepsEveryPart() {
        RatioResult ab = RatioResult.sum(List.of(new RatioResult("l", 1, 1, "u"), new RatioResult("l", 2, 1, "u")));
        RatioResult abc = RatioResult.sum(List.of(ab, new RatioResult("l", 3, 1, "u")));
        assertThat(abc.parts()).isEqualTo(3);
        assertThat(abc.getScore()).isEqualTo(2.0);
        assertThat(abc.getStatistics().getMean()).isEqualTo(2.0);
    }

    @Test
    void refusesToMixLabels() {
        assertThatThrownBy(() -> RatioResult.sum(List.of(new RatioResult("a", 1, 1, "u"), new RatioResult("b", 1, 1, "u"))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
