package io.xferbench.client.load.engine;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The failed requests of a run outside its measured window, by cause: not figures of the window, but a server that sent
 * wrong bytes while it warmed up, or while the last requests drained, is no result either.
 *
 * @param warmup  requests sent before the window opened (and the setup requests that failed before it)
 * @param drain   requests that completed after the window closed (measured ones that ended late, setup requests)
 */
public record UnmeasuredErrors(Map<String, Long> warmup, Map<String, Long> drain) {
    public static final UnmeasuredErrors NONE = new UnmeasuredErrors(Map.of(), Map.of());

    public UnmeasuredErrors {
        warmup = Collections.unmodifiableMap(new TreeMap<>(warmup)); // sorted by cause, as the window's errors
        drain = Collections.unmodifiableMap(new TreeMap<>(drain));
    }

    public boolean isEmpty() {
        return warmup.isEmpty() && drain.isEmpty();
    }

    public long warmupCount() {
        return sum(warmup);
    }

    public long drainCount() {
        return sum(drain);
    }

    public UnmeasuredErrors plus(UnmeasuredErrors other) {
        return new UnmeasuredErrors(merged(warmup, other.warmup), merged(drain, other.drain));
    }

    private static Map<String, Long> merged(Map<String, Long> a, Map<String, Long> b) {
        Map<String, Long> m = new TreeMap<>(a);
        b.forEach((k, v) -> m.merge(k, v, Long::sum));
        return m;
    }

    private static long sum(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }
}
