package io.xferbench.client.load;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What one load run does.
 *
 * @param connections  concurrent kept-alive connections
 * @param threads      event-loop threads the connections are spread over
 * @param requests     measured requests to complete, or 0 to run for {@code duration}
 * @param duration     how long to measure when {@code requests} is 0
 * @param warmup       unmeasured time before the window opens
 * @param ratePerSecond 0 for a closed loop (each connection sends its next request as soon as the last one
 *                     completes); otherwise the open-loop arrival rate over all connections, with latency taken
 *                     from each request's intended start (coordinated omission corrected)
 * @param drainTimeout how long in-flight requests may take to finish once the window has closed
 */
public record LoadPlan(InetSocketAddress target, int connections, int threads, long requests, Duration duration,
                       Duration warmup, double ratePerSecond, Duration drainTimeout) {
    public LoadPlan {
        if (connections < 1 || threads < 1) {
            throw new IllegalArgumentException("connections and threads must be at least 1");
        }
        if (requests < 0 || ratePerSecond < 0) {
            throw new IllegalArgumentException("requests and rate must not be negative");
        }
        if (requests == 0 && (duration == null || duration.isZero() || duration.isNegative())) {
            throw new IllegalArgumentException("give a request count or a positive duration");
        }
    }

    boolean openLoop() {
        return ratePerSecond > 0;
    }

    int effectiveThreads() {
        return Math.min(threads, connections);
    }
}
