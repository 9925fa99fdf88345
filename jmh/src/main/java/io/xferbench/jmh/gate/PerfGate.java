package io.xferbench.jmh.gate;

import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.jmh.gate.Verdict.Kind;
import io.xferbench.jmh.gate.Verdict.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code scripts/perf-gate}: runs the gate suite and judges it against the committed baseline.
 * <pre>
 * PerfGate [--baseline FILE] [--verdict-json FILE] [--results FILE] [--jvm-arg ARG]... [--methods a,b] [--sizes n,m]
 * PerfGate --update-baseline [same options]
 * PerfGate --compare BASELINE.json CURRENT.json [--verdict-json FILE]
 * </pre>
 * Exit codes: 0 no regression, 1 regression, 2 could not run.
 */
public final class PerfGate {
    static final Path DEFAULT_BASELINE = Path.of("jmh/gate/baseline.json");

    private PerfGate() {
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(args);
        } catch (Exception e) {
            System.err.println("perf-gate: could not run: " + e);
            code = GateReport.EXIT_COULD_NOT_RUN;
        }
        System.exit(code);
    }

    static int run(String[] args) throws Exception {
        Path baselineFile = DEFAULT_BASELINE;
        Path verdictJson = null;
        Path results = null;
        boolean update = false;
        Path compareA = null;
        Path compareB = null;
        List<String> jvmArgs = new ArrayList<>();
        List<String> methods = null;
        List<String> sizes = null;
        boolean countsOnly = false;
        int warmups = -1;
        int iterations = -1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--baseline" -> baselineFile = Path.of(args[++i]);
                case "--verdict-json" -> verdictJson = Path.of(args[++i]);
                case "--results" -> results = Path.of(args[++i]);
                case "--update-baseline" -> update = true;
                case "--counts-only" -> countsOnly = true;
                case "--compare" -> {
                    compareA = Path.of(args[++i]);
                    compareB = Path.of(args[++i]);
                }
                case "--jvm-arg" -> jvmArgs.add(args[++i]);
                case "--methods" -> methods = Arrays.asList(args[++i].split(","));
                case "--sizes" -> sizes = Arrays.asList(args[++i].split(","));
                case "--warmup-iterations" -> warmups = Integer.parseInt(args[++i]);
                case "--iterations" -> iterations = Integer.parseInt(args[++i]);
                case "-h", "--help" -> {
                    System.out.println("usage: perf-gate [--update-baseline] [--compare A.json B.json] [--baseline FILE] "
                            + "[--verdict-json FILE] [--results FILE] [--jvm-arg ARG]... [--methods a,b] [--sizes n,m] "
                            + "[--warmup-iterations N] [--iterations N] [--counts-only]");
                    return GateReport.EXIT_OK;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see --help)");
            }
        }

        if (compareA != null) {
            GatePolicy policy = Files.exists(compareA) && isBaseline(compareA) ? Baseline.read(compareA).policy() : GatePolicy.DEFAULT;
            GateReport report = new GateReport(new GateComparator(policy).compare(JmhResults.read(compareA), JmhResults.read(compareB)));
            return finish(report, verdictJson);
        }

        if (!PerfSyscallCounter.availability().isAvailable()) {
            System.err.println("perf-gate: could not run: " + PerfSyscallCounter.availability().unavailableReason());
            return GateReport.EXIT_COULD_NOT_RUN;
        }
        Baseline baseline = null;
        if (!update) {
            if (!Files.exists(baselineFile)) {
                System.err.println("perf-gate: could not run: no baseline at " + baselineFile + "; create one with --update-baseline");
                return GateReport.EXIT_COULD_NOT_RUN;
            }
            baseline = Baseline.read(baselineFile);
        }
        GateSuite suite = GateSuite.defaults(methods != null ? methods : availableMethods()).withJvmArgs(jvmArgs);
        if (sizes != null) {
            suite = suite.only(suite.methods(), sizes);
        }
        if (warmups >= 0 || iterations > 0) {
            suite = suite.withIterations(warmups >= 0 ? warmups : suite.warmupIterations(), iterations > 0 ? iterations : suite.iterations());
        }
        // JMH's results go to a temp file unless asked to keep them; it is gone on every path out of here.
        Path out = results != null ? results : Files.createTempFile("perf-gate", ".json");
        if (results == null) {
            out.toFile().deleteOnExit();   // SIGTERM and Ctrl-C too
        }
        try {
            return judge(suite, out, update, countsOnly, baseline, baselineFile, verdictJson);
        } finally {
            if (results == null) {
                Files.deleteIfExists(out);
            }
        }
    }

    private static int judge(GateSuite suite, Path out, boolean update, boolean countsOnly, Baseline baseline, Path baselineFile,
                             Path verdictJson) throws Exception {
        suite.run(out);
        List<BenchmarkResult> current = JmhResults.read(out);
        if (current.isEmpty()) {
            System.err.println("perf-gate: could not run: JMH produced no results (see its output above)");
            return GateReport.EXIT_COULD_NOT_RUN;
        }

        if (update) {
            Map<String, Object> env = new LinkedHashMap<>(EnvironmentInfo.describe(null));
            env.put("suite", suite);
            Baseline.write(baselineFile, GatePolicy.DEFAULT, env, out);
            System.out.println("perf-gate: baseline written to " + baselineFile + " (" + current.size() + " results); commit it");
            return GateReport.EXIT_OK;
        }

        GateComparator comparator = new GateComparator(baseline.policy());
        List<Verdict> verdicts = comparator.compare(baseline.results(), current);
        verdicts = countsOnly ? ratiosAsInfo(verdicts) : confirmRatioRegressions(verdicts, baseline, suite, comparator);
        return finish(new GateReport(verdicts), verdictJson);
    }

    /**
     * A ratio regression stands only if a second run shows it too; one-off interference (another tenant's burst
     * during one benchmark) does not survive a re-run.
     */
    private static List<Verdict> confirmRatioRegressions(List<Verdict> verdicts, Baseline baseline, GateSuite suite,
                                                         GateComparator comparator) throws Exception {
        List<String> suspects = verdicts.stream()
                .filter(v -> v.kind() == Kind.RATIO && v.outcome() == Outcome.REGRESSED).map(Verdict::key).toList();
        if (suspects.isEmpty()) {
            return verdicts;
        }
        System.err.println("perf-gate: re-running to confirm " + suspects.size() + " ratio regression(s): " + suspects);
        List<String> methods = GateSuite.methodsOf(baseline.results(), suspects, baseline.policy());
        Path again = Files.createTempFile("perf-gate-confirm", ".json");
        again.toFile().deleteOnExit();
        List<Verdict> recheck;
        try {
            suite.only(methods, suite.sizes()).run(again);
            recheck = comparator.compare(baseline.results(), JmhResults.read(again));
        } finally {
            Files.deleteIfExists(again);
        }
        List<Verdict> out = new ArrayList<>();
        for (Verdict v : verdicts) {
            if (v.kind() == Kind.RATIO && v.outcome() == Outcome.REGRESSED) {
                boolean confirmed = recheck.stream().anyMatch(r -> r.key().equals(v.key()) && r.kind() == Kind.RATIO && r.outcome() == Outcome.REGRESSED);
                out.add(confirmed ? v.withOutcome(Outcome.REGRESSED, "confirmed by a re-run")
                        : v.withOutcome(Outcome.OK, "dropped once, not confirmed by a re-run: noise"));
            } else {
                out.add(v);
            }
        }
        return out;
    }

    /** --counts-only (what .ci/run uses): ratios are shown but only the deterministic counts can fail the build. */
    private static List<Verdict> ratiosAsInfo(List<Verdict> verdicts) {
        return verdicts.stream()
                .map(v -> v.kind() == Kind.RATIO ? v.withOutcome(Outcome.INFO, "not gated with --counts-only"
                        + (v.outcome() == Outcome.OK ? "" : "; would be " + v.outcome().name().toLowerCase(java.util.Locale.ROOT))) : v)
                .toList();
    }

    private static int finish(GateReport report, Path verdictJson) throws Exception {
        System.out.print(report.table());
        if (verdictJson != null) {
            report.writeJson(verdictJson);
        }
        return report.exitCode();
    }

    private static boolean isBaseline(Path file) throws Exception {
        return Files.readString(file).stripLeading().startsWith("{");
    }

    private static List<String> availableMethods() {
        return DownloadMethods.all().stream().filter(m -> m.availability().isAvailable()).map(SenderMethod::id).toList();
    }
}
