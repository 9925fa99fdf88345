package io.xferbench.server.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A body stalls only after a whole limit in which looks saw its count stand still; an unreadable count never stalls. */
class StallWatchTest {
    private static final long LIMIT = 1_000;

    @Test
    void stallsOnlyAWholeLimitAfterTheCountLastMoved() {
        StallWatch w = new StallWatch();
        w.start(0, Duration.ofNanos(LIMIT));
        assertThat(w.nextLookNanos()).isEqualTo(LIMIT / 4);
        assertThat(w.stalled(250, 10)).as("the first look only learns the count").isFalse();
        assertThat(w.stalled(500, 20)).as("moved").isFalse();
        assertThat(w.stalled(1_000, 20)).isFalse();
        assertThat(w.stalled(1_499, 20)).as("not a whole limit since it was seen moving").isFalse();
        assertThat(w.stalled(1_500, 20)).isTrue();
        assertThat(w.nextLookNanos()).isEqualTo(1_750);
    }

    @Test
    void anUnreadableCountIsNeverAStall() {
        StallWatch w = new StallWatch();
        w.start(0, Duration.ofNanos(LIMIT));
        for (long t = 250; t < 10 * LIMIT; t += 250) {
            assertThat(w.stalled(t, StallWatch.UNREADABLE)).isFalse();
        }
    }

    @Test
    void aStandstillWhileTheServerIsBehindIsNoStallAndRestartsTheLimit() {
        StallWatch w = new StallWatch();
        w.start(0, Duration.ofNanos(LIMIT));
        assertThat(w.stalled(250, 10)).isFalse();
        for (long t = 500; t <= 3 * LIMIT; t += 250) {
            assertThat(w.stalled(t, StallWatch.SERVER_BEHIND)).as("bytes wait for the server at %d", t).isFalse();
        }
        // The server caught up and the client sends nothing more: a whole limit from then, not from the last move.
        assertThat(w.stalled(3_250, 10)).isFalse();
        assertThat(w.stalled(4_000, 10)).isFalse();
        assertThat(w.stalled(4_250, 10)).isTrue();
    }

    @Test
    void stoppedIsNotWatching() {
        StallWatch w = new StallWatch();
        assertThat(w.watching()).isFalse();
        w.start(0, Duration.ofSeconds(1));
        assertThat(w.watching()).isTrue();
        w.stop();
        assertThat(w.watching()).isFalse();
    }
}
