package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * perf's attach retried by time, on a clock the test moves: each try costs what a loaded machine made it cost, and the
 * backoff sleeps advance the clock instead of waiting.
 */
class AttachRetryTest {
    private static final IOException EXITED = new IOException(
            "perf did not acknowledge 'ping' (perf exited): Error: No such process (ESRCH)");

    /** A clock that a try and a sleep move forward; the sleeps are kept to be checked. */
    private static final class FakeClock {
        long now;
        final List<Long> sleeps = new ArrayList<>();

        AttachRetry retry() {
            return new AttachRetry(AttachRetry.BUDGET, () -> now, nanos -> {
                sleeps.add(nanos);
                now += nanos;
            });
        }
    }

    /** The failure seen under double CI load: ten tries in a row met an exiting thread. A count of ten gave up there. */
    @Test
    void moreThanTenThreadExitsInARowStillAttachWithinTheBudget() throws Exception {
        FakeClock clock = new FakeClock();
        int[] tries = {0};
        String attached = clock.retry().run(() -> {
            clock.now += Duration.ofMillis(40).toNanos(); // starting perf and its failed ping, on a loaded machine
            if (++tries[0] <= 15) {
                throw EXITED;
            }
            return "attached";
        });
        assertThat(attached).isEqualTo("attached");
        assertThat(tries[0]).isEqualTo(16);
        assertThat(clock.sleeps).first().isEqualTo(AttachRetry.FIRST_BACKOFF.toNanos());
        assertThat(clock.sleeps).allMatch(s -> s <= AttachRetry.MAX_BACKOFF.toNanos());
        assertThat(clock.now).isLessThanOrEqualTo(AttachRetry.BUDGET.toNanos());
    }

    @Test
    void givesUpWhenTheBudgetIsSpentNamingItAndThePerfError() {
        FakeClock clock = new FakeClock();
        int[] tries = {0};
        assertThatThrownBy(() -> clock.retry().run(() -> {
            tries[0]++;
            clock.now += Duration.ofMillis(300).toNanos();
            throw EXITED;
        })).isInstanceOf(IOException.class)
                .hasMessageStartingWith("perf could not attach within 5000 ms (" + tries[0] + " tries")
                .hasMessageContaining("No such process")
                .hasCause(EXITED);
        // Never past the budget by more than one try: no sleep was started that the budget had no room for.
        assertThat(clock.now).isLessThanOrEqualTo(AttachRetry.BUDGET.toNanos() + Duration.ofMillis(300).toNanos());
        assertThat(tries[0]).isGreaterThan(1);
    }

    @Test
    void anotherFailureIsNotRetried() {
        FakeClock clock = new FakeClock();
        IOException denied = new IOException("perf did not acknowledge 'ping' (perf exited): Permission denied");
        int[] tries = {0};
        assertThatThrownBy(() -> clock.retry().run(() -> {
            tries[0]++;
            throw denied;
        })).isSameAs(denied);
        assertThat(tries[0]).isEqualTo(1);
        assertThat(clock.sleeps).isEmpty();
    }
}
