package io.xferbench.client.load;

import java.util.Map;

/**
 * One load run's figures, measured window only.
 *
 * @param requests                  requests completed and verified
 * @param errors                    failed requests by cause
 * @param unfinished                requests still in flight when the drain timeout ended the run (not counted)
 * @param seconds                   length of the measured window
 * @param clientCpuMicrosPerRequest the client process's CPU per completed request (user + system, all threads)
 * @param clientBusiestLoopShare    CPU share of the busiest event-loop thread: near 1.0 the generator, not the
 *                                  server, may be the limit
 */
public record LoadResult(int connections, int threads, double targetRatePerSecond, long requests,
                         Map<String, Long> errors, long unfinished, double seconds, double requestsPerSecond,
                         double mibPerSecond, LatencySummary latency, double clientCpuMicrosPerRequest,
                         double clientBusiestLoopShare) {

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public boolean verified() {
        return requests > 0 && errorCount() == 0;
    }

    /** The generator's busiest loop thread was busy this share of the window or more: its numbers may be its own limit. */
    public static final double SATURATED_LOOP_SHARE = 0.9;

    public boolean clientMayBeLimit() {
        return clientBusiestLoopShare >= SATURATED_LOOP_SHARE;
    }

    /** Latency percentiles in milliseconds, from each request's (intended) start to its last byte. */
    public record LatencySummary(double p50, double p90, double p99, double p999, double max) {
    }
}
