package io.xferbench.client.load.engine;

import io.xferbench.client.load.exchange.ExchangeOutcome;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** What one worker saw in the measured window, and the failures outside it. */
final class WorkerTally {
    final Histogram latencyNanos = new Histogram(3);
    final TreeMap<String, Long> errors = new TreeMap<>();
    final TreeMap<String, Long> warmupErrors = new TreeMap<>();
    final TreeMap<String, Long> drainErrors = new TreeMap<>();
    final TreeMap<String, LoadResult.OpCounts> operations = new TreeMap<>();
    final TreeMap<String, Long> methodsRun = new TreeMap<>();
    long ok;
    long bodyBytes;
    long unfinished;
    long lastCompletionNanos = Long.MIN_VALUE;
    private long cpuStart = -1;
    private long cpuEnd = -1;

    void record(long latency, String op, ExchangeOutcome outcome, long completedNanos) {
        latencyNanos.recordValue(Math.max(0, latency));
        lastCompletionNanos = Math.max(lastCompletionNanos, completedNanos);
        operations.merge(op, LoadResult.OpCounts.of(outcome.error()), LoadResult.OpCounts::plus);
        if (outcome.methodRun() != null) {
            methodsRun.merge(outcome.methodRun(), 1L, Long::sum);
        }
        if (outcome.ok()) {
            ok++;
            bodyBytes += outcome.bodyBytes();
        } else {
            error(outcome.error());
        }
    }

    void error(String key) {
        errors.merge(key, 1L, Long::sum);
    }

    void warmupError(String key) {
        warmupErrors.merge(key, 1L, Long::sum);
    }

    void drainError(String key) {
        drainErrors.merge(key, 1L, Long::sum);
    }

    /** A measured request that got no answer in time: an error, and the end of its wait, but no latency sample. */
    void timedOut(String op, long completedNanos) {
        lastCompletionNanos = Math.max(lastCompletionNanos, completedNanos);
        operations.merge(op, LoadResult.OpCounts.of(LoadWorker.TIMEOUT), LoadResult.OpCounts::plus);
        error(LoadWorker.TIMEOUT);
    }

    void unfinished(int n) {
        unfinished = n;
    }

    boolean cpuStarted() {
        return cpuStart >= 0;
    }

    void cpuStart(long nanos) {
        cpuStart = nanos;
    }

    void cpuEnd(long nanos) {
        if (cpuEnd < 0 && cpuStart >= 0) {
            cpuEnd = nanos;
        }
    }

    long cpuNanos() {
        return cpuStart >= 0 && cpuEnd >= cpuStart ? cpuEnd - cpuStart : 0;
    }
}
