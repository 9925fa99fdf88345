package io.xferbench.jmh.profile;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

/** Builds the JMH objects a profiler sees, without running JMH. */
final class JmhFixtures {
    static final int WARMUP = 2;
    static final int MEASUREMENT = 3;

    private JmhFixtures() {
    }

    static IterationParams warmup() {
        return new IterationParams(IterationType.WARMUP, WARMUP, TimeValue.seconds(1), 1);
    }

    static IterationParams measurement() {
        return new IterationParams(IterationType.MEASUREMENT, MEASUREMENT, TimeValue.seconds(1), 1);
    }

    /** A benchmark with a {@code size} param (or none when {@code size} is null) and the given fork count. */
    static BenchmarkParams benchmark(String size, int forks) {
        return benchmark(size, forks, WARMUP);
    }

    static BenchmarkParams benchmark(String size, int forks, int warmupIterations) {
        WorkloadParams params = new WorkloadParams();
        if (size != null) {
            params.put("size", size, 0);
        }
        return new BenchmarkParams("io.xferbench.jmh.Fake.op", "generated", true, 1, new int[] {1}, List.of(),
                forks, 0, new IterationParams(IterationType.WARMUP, warmupIterations, TimeValue.seconds(1), 1), measurement(), Mode.Throughput, params, TimeUnit.SECONDS, 1,
                "java", List.of(), "25", "vm", "25", "1.37", TimeValue.minutes(10));
    }

    /** What JMH hands afterIteration: {@code ops} invocations in one second. */
    static IterationResult iteration(BenchmarkParams bp, IterationParams ip, long ops) {
        IterationResult r = new IterationResult(bp, ip, new IterationResultMetaData(ops, ops));
        r.addResult(new ThroughputResult(ResultRole.PRIMARY, "op", ops, TimeUnit.SECONDS.toNanos(1), TimeUnit.SECONDS));
        return r;
    }
}
