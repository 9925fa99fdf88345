package io.xferbench.core.read;

/** Receives each read's latency in nanoseconds; called from the engines' threads concurrently. */
@FunctionalInterface
public interface LatencySink {
    LatencySink NONE = nanos -> { };

    void record(long nanos);
}
