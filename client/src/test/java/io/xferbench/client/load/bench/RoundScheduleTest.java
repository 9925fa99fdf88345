package io.xferbench.client.load.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rounds interleave the cells: every cell once per round, round r before round r + 1, odd rounds in reverse. */
class RoundScheduleTest {
    @Test
    void everyCellOfARoundRunsBeforeTheNextRoundStartsAndOddRoundsRunBackwards() {
        List<RoundSchedule.Turn<String>> turns = RoundSchedule.interleave(List.of("platform 50", "platform 1000", "nginx 50"), 4);

        assertThat(turns).extracting(t -> t.round() + " " + t.cell()).containsExactly(
                "0 platform 50", "0 platform 1000", "0 nginx 50",
                "1 nginx 50", "1 platform 1000", "1 platform 50",
                "2 platform 50", "2 platform 1000", "2 nginx 50",
                "3 nginx 50", "3 platform 1000", "3 platform 50");
    }

    @Test
    void oneRoundIsTheCellsInTheirOrder() {
        assertThat(RoundSchedule.interleave(List.of("a", "b"), 1)).extracting(RoundSchedule.Turn::cell).containsExactly("a", "b");
    }

    @Test
    void noRoundsIsAMistake() {
        assertThatThrownBy(() -> RoundSchedule.interleave(List.of("a"), 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
