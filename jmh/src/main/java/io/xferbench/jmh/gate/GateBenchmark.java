package io.xferbench.jmh.gate;

import java.util.ArrayList;
import java.util.List;

/**
 * One benchmark of the gate suite: its class, the param that names the method under test (download or upload
 * method, relay, reader), the methods it runs, and the other params it runs with (each overriding the
 * benchmark's own {@code @Param} defaults, which are too many for a gate).
 */
public record GateBenchmark(String benchmark, String methodParam, List<String> methods, List<GateParam> params) {

    public GateBenchmark {
        methods = List.copyOf(methods);
        params = List.copyOf(params);
    }

    /** The class's simple name, as {@code --benchmarks} takes it: {@code FileToSocketBenchmark}. */
    public String simpleName() {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    public GateBenchmark withMethods(List<String> someMethods) {
        return new GateBenchmark(benchmark, methodParam, someMethods, params);
    }

    /** The same with param {@code name} set to {@code values}, if the benchmark has that param. */
    public GateBenchmark withParam(String name, List<String> values) {
        List<GateParam> out = new ArrayList<>();
        for (GateParam p : params) {
            out.add(p.name().equals(name) ? new GateParam(name, values) : p);
        }
        return new GateBenchmark(benchmark, methodParam, methods, out);
    }

    /** A param and the values the gate runs it at. */
    public record GateParam(String name, List<String> values) {
        public GateParam {
            values = List.copyOf(values);
        }
    }
}
