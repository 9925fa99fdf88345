package io.xferbench.jmh.gate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What the gate runs: every download method over loopback at two sizes, with the syscall profiler. Short
 * iterations suffice because the hard gate is on counts, which do not need long runs to be exact.
 */
public record GateSuite(List<String> methods, List<String> sizes, int forks, int warmupIterations, int iterations,
                        List<String> jvmArgs) {
    public static final String BENCHMARK = "io.xferbench.jmh.FileToSocketBenchmark";
    private static final java.time.Duration LOCK_WAIT = java.time.Duration.ofMinutes(10);

    public static GateSuite defaults(List<String> methods) {
        return new GateSuite(methods, List.of("65536", "1048576"), 1, 2, 3, List.of());
    }

    public GateSuite only(List<String> someMethods, List<String> someSizes) {
        return new GateSuite(someMethods, someSizes, forks, warmupIterations, iterations, jvmArgs);
    }

    public GateSuite withIterations(int warmups, int measured) {
        return new GateSuite(methods, sizes, forks, warmups, measured, jvmArgs);
    }

    public GateSuite withJvmArgs(List<String> args) {
        return new GateSuite(methods, sizes, forks, warmupIterations, iterations, args);
    }

    /** Runs JMH in this process (forks are separate JVMs) and leaves its JSON results in {@code out}. */
    public void run(Path out) throws RunnerException {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include(BENCHMARK.replace(".", "\\.") + "\\.")
                .param("method", methods.toArray(String[]::new))
                .param("size", sizes.toArray(String[]::new))
                .forks(forks)
                .warmupIterations(warmupIterations)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(iterations)
                .measurementTime(TimeValue.seconds(1))
                .addProfiler("syscalls")
                .resultFormat(ResultFormatType.JSON)
                .result(out.toString());
        if (!jvmArgs.isEmpty()) {
            o.jvmArgsAppend(jvmArgs.toArray(String[]::new));
        }
        Runner runner = new Runner(o.build());
        // Another JMH run on this machine holds JMH's lock: wait for it (two runs at once would disturb each
        // other) rather than fail the gate, for up to LOCK_WAIT.
        long deadline = System.nanoTime() + LOCK_WAIT.toNanos();
        while (true) {
            try {
                runner.run();
                return;
            } catch (RunnerException e) {
                if (!String.valueOf(e.getMessage()).contains("JMH lock") || System.nanoTime() > deadline) {
                    throw e;
                }
                System.err.println("perf-gate: another JMH run holds the JMH lock; waiting for it");
                try {
                    Thread.sleep(10_000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** The method ids of the keys, for a re-run of just those (plus the ruler). */
    static List<String> methodsOf(List<BenchmarkResult> results, List<String> keys, GatePolicy policy) {
        List<String> out = new ArrayList<>();
        out.add(policy.ruler());
        for (BenchmarkResult r : results) {
            String m = r.params().get(policy.ratioParam());
            if (keys.contains(r.key()) && m != null && !out.contains(m)) {
                out.add(m);
            }
        }
        return out;
    }
}
