package io.xferbench.client.load.engine;

import io.xferbench.client.load.exchange.MethodsRun;
import java.util.Map;
import java.util.TreeMap;

/**
 * One load run's figures, measured window only, and what failed outside it.
 *
 * @param requests                  requests completed and verified
 * @param errors                    failed requests by cause
 * @param unfinished                requests still in flight when the drain timeout ended the run (not counted)
 * @param seconds                   length of the measured window
 * @param clientCpuMicrosPerRequest the client process's CPU per completed request (user + system, all threads)
 * @param clientBusiestLoopShare    CPU share of the busiest event-loop thread: near 1.0 the generator, not the
 *                                  server, may be the limit
 * @param operations                per operation ({@code download}, {@code upload}, {@code exist}, {@code delete}): its
 *                                  verified requests and its errors by cause; empty when not known (wrk)
 * @param unmeasured                the requests that failed outside the window (warm-up, drain), by cause
 * @param methodsRun                the download methods the window's answers said ran; none when not known (wrk, nginx)
 */
public record LoadResult(int connections, int threads, double targetRatePerSecond, long requests,
                         Map<String, Long> errors, long unfinished, double seconds, double requestsPerSecond,
                         double mibPerSecond, LatencySummary latency, double clientCpuMicrosPerRequest,
                         double clientBusiestLoopShare, Map<String, OpCounts> operations, UnmeasuredErrors unmeasured,
                         MethodsRun methodsRun) {

    /** A run that saw nothing outside its window (wrk: it reports the window only). */
    public LoadResult(int connections, int threads, double targetRatePerSecond, long requests, Map<String, Long> errors,
                      long unfinished, double seconds, double requestsPerSecond, double mibPerSecond, LatencySummary latency,
                      double clientCpuMicrosPerRequest, double clientBusiestLoopShare, Map<String, OpCounts> operations) {
        this(connections, threads, targetRatePerSecond, requests, errors, unfinished, seconds, requestsPerSecond, mibPerSecond,
                latency, clientCpuMicrosPerRequest, clientBusiestLoopShare, operations, UnmeasuredErrors.NONE, MethodsRun.NONE);
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** This result with one error more, of {@code cause}: something outside the requests made the window no result. */
    public LoadResult withError(String cause) {
        Map<String, Long> more = new java.util.LinkedHashMap<>(errors);
        more.merge(cause, 1L, Long::sum);
        return new LoadResult(connections, threads, targetRatePerSecond, requests, more, unfinished, seconds,
                requestsPerSecond, mibPerSecond, latency, clientCpuMicrosPerRequest, clientBusiestLoopShare, operations, unmeasured, methodsRun);
    }

    /** Requests made and verified, and none failed: in the window, nor while warming up or draining. */
    public boolean verified() {
        return requests > 0 && errorCount() == 0 && unmeasured.isEmpty();
    }

    /** Every request of the window timed out: the server did not answer, and the row's figures are not a result. */
    public boolean noAnswer() {
        return requests == 0 && !errors.isEmpty() && errors.keySet().stream().allMatch(LoadWorker.TIMEOUT::equals);
    }

    /** The generator's busiest loop thread was busy this share of the window or more: its numbers may be its own limit. */
    static final double SATURATED_LOOP_SHARE = 0.9;

    public boolean clientMayBeLimit() {
        return clientBusiestLoopShare >= SATURATED_LOOP_SHARE;
    }

    /** One operation's share of a run: verified requests, and errors by cause. */
    public record OpCounts(long requests, Map<String, Long> errors) {
        static OpCounts of(String error) {
            return error == null ? new OpCounts(1, Map.of()) : new OpCounts(0, Map.of(error, 1L));
        }

        OpCounts plus(OpCounts other) {
            Map<String, Long> merged = new TreeMap<>(errors);
            other.errors.forEach((k, v) -> merged.merge(k, v, Long::sum));
            return new OpCounts(requests + other.requests, merged);
        }
    }

    /** Latency percentiles in milliseconds, from each request's (intended) start to its last byte. */
    public record LatencySummary(double p50, double p90, double p99, double p999, double max) {
    }
}
