package io.xferbench.server.limits;

import java.time.Duration;
import java.util.logging.Logger;

/**
 * A warning that may repeat hundreds of times a second (accept failing for want of descriptors): the first is
 * logged at once, the rest at most once per period, with how many were folded into it.
 */
public final class RateLimitedLog {
    private final Logger log;
    private final String what;
    private final long periodNanos;
    private long lastNanos;
    private long suppressed;
    private boolean logged;

    public RateLimitedLog(Logger log, String what, Duration period) {
        this.log = log;
        this.what = what;
        this.periodNanos = period.toNanos();
    }

    public synchronized void report(Exception e) {
        long now = System.nanoTime();
        if (logged && now - lastNanos < periodNanos) {
            suppressed++;
            return;
        }
        String folded = suppressed == 0 ? "" : " (" + suppressed + " more since the last report)";
        log.warning(what + ": " + e.getMessage() + folded);
        logged = true;
        lastNanos = now;
        suppressed = 0;
    }
}
