package io.xferbench.client.load.engine;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The run's clock, shared by every worker: when measuring starts and stops, and the measured-request tickets
 * of a run bounded by count. A request counts when it started inside the window (its intended start, in an open
 * loop) and, for a timed run, completed before the window closed.
 */
final class LoadWindow {
    final long startNanos;
    final long measureFromNanos;
    /** Moves only earlier, when an observer ends a timed window early ({@link #endNow}). */
    private volatile long measureUntilNanos;
    private final AtomicLong tickets;
    private volatile boolean closed;

    LoadWindow(LoadPlan plan, long startNanos) {
        this.startNanos = startNanos;
        this.measureFromNanos = startNanos + plan.warmup().toNanos();
        this.measureUntilNanos = plan.requests() > 0 ? Long.MAX_VALUE : measureFromNanos + plan.duration().toNanos();
        this.tickets = plan.requests() > 0 ? new AtomicLong(plan.requests()) : null;
    }

    /**
     * May a request starting (intended) at {@code intendedNanos} be sent?
     *
     * @return 1 measured, 0 warm-up (unmeasured), -1 no: the run is over
     */
    int admit(long intendedNanos) {
        if (closed || intendedNanos >= measureUntilNanos) {
            return -1;
        }
        if (intendedNanos < measureFromNanos) {
            return 0;
        }
        if (tickets == null) {
            return 1;
        }
        if (tickets.getAndDecrement() > 0) {
            return 1;
        }
        closed = true;
        return -1;
    }

    boolean counts(boolean measured, long completedNanos) {
        return measured && completedNanos <= measureUntilNanos;
    }

    boolean over(long nowNanos) {
        return closed || nowNanos >= measureUntilNanos;
    }

    long measureUntilNanos() {
        return measureUntilNanos;
    }

    void close() {
        closed = true;
    }

    /** Ends a timed window now: no request starts after this, and none that completes after it counts. */
    void endNow(long nowNanos) {
        measureUntilNanos = Math.min(measureUntilNanos, Math.max(nowNanos, measureFromNanos));
        closed = true;
    }
}
