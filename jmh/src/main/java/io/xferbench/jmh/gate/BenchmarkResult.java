package io.xferbench.jmh.gate;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** One JMH result row: benchmark, its params, the primary score and the secondary results by name. */
public record BenchmarkResult(String benchmark, SortedMap<String, String> params, Metric primary, Map<String, Metric> secondary) {

    public BenchmarkResult {
        params = new TreeMap<>(params);
    }

    /** Benchmark plus params sorted by name, so @Param variants never collide: {@code Foo.send[method=mmap,size=1048576]}. */
    public String key() {
        return keyWithout(null);
    }

    /** The key with one param left out: the group a ratio is taken within (e.g. all methods at one size). */
    public String keyWithout(String param) {
        String p = params.entrySet().stream()
                .filter(e -> !e.getKey().equals(param))
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
        return p.isEmpty() ? benchmark : benchmark + "[" + p + "]";
    }
}
