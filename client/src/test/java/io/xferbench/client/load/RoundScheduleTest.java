package io.xferbench.client.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rounds interleave the servers: every cell once per round, round r before round r + 1. */
class RoundScheduleTest {
    @Test
    void everyCellOfARoundRunsBeforeTheNextRoundStarts() {
        List<RoundSchedule.Turn<String>> turns = RoundSchedule.interleave(List.of("platform", "netty-epoll", "nginx"), 3);

        assertThat(turns).extracting(t -> t.round() + " " + t.cell()).containsExactly(
                "0 platform", "0 netty-epoll", "0 nginx",
                "1 platform", "1 netty-epoll", "1 nginx",
                "2 platform", "2 netty-epoll", "2 nginx");
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
