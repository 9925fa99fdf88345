package io.xferbench.core.read;

/** Receives each read's latency in nanoseconds; called from the engines' threads concurrently. */
@FunctionalInterface
public interface LatencySink {
    LatencySink NONE = nanos -> { };

    void record(long nanos);

    /**
     * A sink for the calling thread alone, taken before its reads start, so that threads recording side by side
     * share no counters (a shared concurrent histogram makes every read touch the same cache lines); what it
     * records counts in this sink once the engine's {@code read} has returned. By default this sink itself.
     */
    default LatencySink forThread() {
        return this;
    }
}
