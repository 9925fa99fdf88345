package io.xferbench.jmh.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.xferbench.core.method.TransferMethod;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.jmh.FileReadBenchmark;
import io.xferbench.jmh.FileToSocketBenchmark;
import io.xferbench.jmh.ProxyRelayBenchmark;
import io.xferbench.jmh.SocketToFileBenchmark;
import io.xferbench.jmh.gate.GateBenchmark.GateParam;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What the gate runs, with the syscall profiler: every available download method, upload receiver and relay, and
 * every file reader, at 1 MiB with one buffer (or block) size each. A change of path shows at any size, and each
 * benchmark run costs 15–20 s on a busy 2-core machine (a JVM fork, a feeder process for uploads and relays, perf),
 * so one size keeps the whole gate near eight minutes (docs/gate.md). Short iterations suffice because the hard gate
 * is on counts, averaged over thousands of ops, which do not need long runs to be exact.
 */
public record GateSuite(List<GateBenchmark> benchmarks, int forks, int warmupIterations, int iterations, List<String> jvmArgs) {
    private static final Duration LOCK_WAIT = Duration.ofMinutes(10);
    private static final List<String> ONE_MIB = List.of("1048576");

    public GateSuite {
        benchmarks = List.copyOf(benchmarks);
        jvmArgs = List.copyOf(jvmArgs);
    }

    public static GateSuite defaults() {
        return new GateSuite(List.of(
                benchmark(FileToSocketBenchmark.class, "method", id -> DownloadMethods.byId(id).map(TransferMethod.class::cast),
                        new GateParam("size", ONE_MIB), new GateParam("buffer", List.of("65536"))),
                benchmark(SocketToFileBenchmark.class, "method", id -> UploadMethods.byId(id).map(TransferMethod.class::cast),
                        new GateParam("size", ONE_MIB), new GateParam("buffer", List.of("65536"))),
                benchmark(ProxyRelayBenchmark.class, "relay", id -> RelayMethods.byId(id).map(TransferMethod.class::cast),
                        new GateParam("size", ONE_MIB), new GateParam("buffer", List.of("65536"))),
                // Readers have no registry: all of them run, and one that cannot run here is skipped by its own
                // @Setup, in the baseline run as in every later one.
                benchmark(FileReadBenchmark.class, "reader", id -> Optional.empty(),
                        new GateParam("size", ONE_MIB), new GateParam("block", List.of("131072")))),
                1, 1, 2, List.of());
    }

    /**
     * The benchmark's own method {@code @Param} values (so the gate cannot miss one the benchmark runs), less those
     * its registry says are unavailable here.
     */
    private static GateBenchmark benchmark(Class<?> type, String methodParam, Function<String, Optional<TransferMethod>> registry,
                                           GateParam... params) {
        List<String> methods = Arrays.stream(paramDefaults(type, methodParam))
                .filter(id -> registry.apply(id).map(m -> m.availability().isAvailable()).orElse(true))
                .toList();
        return new GateBenchmark(type.getName(), methodParam, methods, List.of(params));
    }

    static String[] paramDefaults(Class<?> type, String field) {
        try {
            return type.getField(field).getAnnotation(Param.class).value();
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(type.getSimpleName() + " has no @Param " + field, e);
        }
    }

    /**
     * Whether this suite runs the row {@code r}: its benchmark, its method, and each gated param at a value the suite
     * runs. A narrowed suite is judged on the baseline rows it covers only; the rest were not asked for, not missing.
     */
    public boolean covers(BenchmarkResult r) {
        return benchmarks.stream().anyMatch(b -> (r.benchmark().equals(b.benchmark()) || r.benchmark().startsWith(b.benchmark() + "."))
                && b.methods().contains(r.params().get(b.methodParam()))
                && b.params().stream().allMatch(p -> !r.params().containsKey(p.name()) || p.values().contains(r.params().get(p.name()))));
    }

    /** Only the named benchmarks (simple class names); an unknown name is a usage error. */
    public GateSuite onlyBenchmarks(List<String> simpleNames) {
        for (String n : simpleNames) {
            if (benchmarks.stream().noneMatch(b -> b.simpleName().equals(n))) {
                throw new IllegalArgumentException("unknown benchmark " + n + "; the gate runs "
                        + benchmarks.stream().map(GateBenchmark::simpleName).toList());
            }
        }
        return with(benchmarks.stream().filter(b -> simpleNames.contains(b.simpleName())).toList());
    }

    /** Only these methods, in every benchmark that has them; a benchmark left with none is dropped. */
    public GateSuite onlyMethods(List<String> methods) {
        return with(benchmarks.stream()
                .map(b -> b.withMethods(b.methods().stream().filter(methods::contains).toList()))
                .filter(b -> !b.methods().isEmpty())
                .toList());
    }

    public GateSuite withSizes(List<String> sizes) {
        return with(benchmarks.stream().map(b -> b.withParam("size", sizes)).toList());
    }

    public GateSuite withIterations(int warmups, int measured) {
        return new GateSuite(benchmarks, forks, warmups, measured, jvmArgs);
    }

    public GateSuite withJvmArgs(List<String> args) {
        return new GateSuite(benchmarks, forks, warmupIterations, iterations, args);
    }

    private GateSuite with(List<GateBenchmark> someBenchmarks) {
        return new GateSuite(someBenchmarks, forks, warmupIterations, iterations, jvmArgs);
    }

    /** How many JMH benchmark runs (method × param combinations) the suite makes. */
    public int runs() {
        return benchmarks.stream().mapToInt(b -> b.methods().size()
                * b.params().stream().mapToInt(p -> p.values().size()).reduce(1, (x, y) -> x * y)).sum();
    }

    /**
     * Runs JMH in this process (forks are separate JVMs), one benchmark after the other, and leaves all their JSON
     * results in {@code out} as one array. JMH's own console output goes to {@code log}, appended.
     */
    public void run(Path out, Path log) throws RunnerException, IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode all = json.createArrayNode();
        Path part = Files.createTempFile("perf-gate-part", ".json");
        Path partLog = Files.createTempFile("perf-gate-part", ".log");
        part.toFile().deleteOnExit();      // Ctrl-C and SIGTERM skip the finally below
        partLog.toFile().deleteOnExit();
        try {
            for (GateBenchmark b : benchmarks) {
                runOne(b, part, partLog);
                Files.write(log, Files.readAllBytes(partLog), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                if (Files.size(part) > 0) {
                    json.readTree(part.toFile()).forEach(all::add);
                }
            }
        } finally {
            Files.deleteIfExists(part);
            Files.deleteIfExists(partLog);
        }
        json.writeValue(out.toFile(), all);
    }

    private void runOne(GateBenchmark b, Path out, Path log) throws RunnerException, IOException {
        Files.write(out, new byte[0]);
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include("^" + b.benchmark().replace(".", "\\.") + "\\.")
                .param(b.methodParam(), b.methods().toArray(String[]::new))
                .forks(forks)
                .warmupIterations(warmupIterations)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(iterations)
                .measurementTime(TimeValue.seconds(1))
                .addProfiler("syscalls")
                .resultFormat(ResultFormatType.JSON)
                .result(out.toString())
                .output(log.toString());
        for (GateParam p : b.params()) {
            o.param(p.name(), p.values().toArray(String[]::new));
        }
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

    /** The same suite reduced to the benchmarks and methods of {@code keys}, plus each one's ruler, for a re-run. */
    GateSuite onlyKeys(List<BenchmarkResult> results, List<String> keys, GatePolicy policy) {
        List<GateBenchmark> out = new ArrayList<>();
        for (GateBenchmark b : benchmarks) {
            List<String> methods = new ArrayList<>();
            for (BenchmarkResult r : results) {
                String m = r.params().get(b.methodParam());
                if (keys.contains(r.key()) && r.benchmark().startsWith(b.benchmark() + ".") && m != null && !methods.contains(m)) {
                    methods.add(m);
                }
            }
            if (!methods.isEmpty()) {
                if (b.methods().contains(policy.ruler()) && !methods.contains(policy.ruler())) {
                    methods.add(0, policy.ruler());
                }
                out.add(b.withMethods(methods));
            }
        }
        return with(out);
    }
}
