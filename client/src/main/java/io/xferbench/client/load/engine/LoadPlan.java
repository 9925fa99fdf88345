package io.xferbench.client.load.engine;

import io.xferbench.core.net.XferConnection;
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
 * @param answerTimeout how long a request may go with none of its bytes moving (sent or received) before it is
 *                     counted as {@code TIMEOUT} and its connection replaced
 */
public record LoadPlan(InetSocketAddress target, int connections, int threads, long requests, Duration duration,
                       Duration warmup, double ratePerSecond, Duration drainTimeout, Duration answerTimeout) {
    /** A plan whose requests may wait {@link XferConnection#DEFAULT_ANSWER_TIMEOUT}, as every client exchange by default. */
    public LoadPlan(InetSocketAddress target, int connections, int threads, long requests, Duration duration,
                    Duration warmup, double ratePerSecond, Duration drainTimeout) {
        this(target, connections, threads, requests, duration, warmup, ratePerSecond, drainTimeout,
                XferConnection.DEFAULT_ANSWER_TIMEOUT);
    }

    public LoadPlan {
        if (answerTimeout == null || !answerTimeout.isPositive()) {
            throw new IllegalArgumentException("the answer timeout must be positive, not " + answerTimeout);
        }
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
