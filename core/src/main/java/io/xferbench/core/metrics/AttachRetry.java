package io.xferbench.core.metrics;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Retries perf's attach for a time, not a number of tries: {@code perf -p} gives up when one of the target's threads
 * exits while it opens its events (ESRCH), and how many tries that takes depends on how busy the machine is (ten in a
 * row failed once under two CI runs at once), while a time budget bounds what a caller waits however fast each try
 * fails. Between tries it backs off briefly, doubling from {@link #FIRST_BACKOFF} up to {@link #MAX_BACKOFF}.
 */
final class AttachRetry {
    /** How long attach keeps trying before it gives up. */
    static final Duration BUDGET = Duration.ofSeconds(5);
    static final Duration FIRST_BACKOFF = Duration.ofMillis(10);
    static final Duration MAX_BACKOFF = Duration.ofMillis(200);

    /** One try; throws when it failed. */
    @FunctionalInterface
    interface Attempt<T> {
        T run() throws IOException;
    }

    /** Sleeps the given nanoseconds (a test's stand-in records them instead). */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private final Duration budget;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;

    AttachRetry(Duration budget, LongSupplier nanoTime, Sleeper sleeper) {
        this.budget = budget;
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
    }

    /** The budget of {@link #BUDGET} on the real clock. */
    static AttachRetry standard() {
        return new AttachRetry(BUDGET, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
    }

    /** Whether perf failed because a thread of its target exited on the way (the one failure worth another try). */
    static boolean threadExited(IOException e) {
        return String.valueOf(e.getMessage()).contains("No such process");
    }

    /**
     * Runs {@code attempt} until it succeeds; a failure that is not {@link #threadExited} is thrown at once, and when
     * the budget is spent the last failure is thrown, wrapped in one naming the budget and the tries made.
     */
    <T> T run(Attempt<T> attempt) throws IOException {
        long start = nanoTime.getAsLong();
        long budgetNanos = budget.toNanos();
        long backoff = FIRST_BACKOFF.toNanos();
        for (int tries = 1; ; tries++) {
            try {
                return attempt.run();
            } catch (IOException e) {
                if (!threadExited(e)) {
                    throw e;
                }
                long left = budgetNanos - (nanoTime.getAsLong() - start);
                if (left <= backoff) {
                    throw new IOException("perf could not attach within " + budget.toMillis() + " ms (" + tries
                            + " tries, each time a thread of the target exited while perf opened its events): "
                            + e.getMessage(), e);
                }
                pause(backoff);
                backoff = Math.min(2 * backoff, MAX_BACKOFF.toNanos());
            }
        }
    }

    private void pause(long nanos) throws IOException {
        try {
            sleeper.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted between perf's attach tries", e);
        }
    }
}
