package io.xferbench.jmh.gate;

import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.jmh.gate.Verdict.Kind;
import io.xferbench.jmh.gate.Verdict.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code scripts/perf-gate}: runs the gate suite and judges it against the committed baseline (docs/gate.md).
 * Exit codes: 0 no regression, 1 regression, 2 could not run (usage error, perf unavailable, no baseline, an environment
 * other than the baseline's, JMH failed).
 */
@Command(name = "perf-gate", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Runs the gate suite (downloads, uploads, relays, file reads with the syscall profiler) and judges it "
                + "against the baseline: syscall counts per op are gated hard, ratios to the ruler method softly "
                + "(only against a baseline measured on this host: the ratio baseline is per host).",
                "Exit codes: 0 no regression, 1 regression, 2 could not run."})
public final class PerfGate implements Callable<Integer> {
    static final Path DEFAULT_BASELINE = Path.of("jmh/gate/baseline.json");
    static final Path DEFAULT_JMH_LOG = Path.of("jmh/target/perf-gate-jmh.log");
    /**
     * Set to 1, the gate checks its command line, prints what it would run and exits 0 without running or reading
     * anything else: the workflow test (PerfGateWorkflowTest) runs the example workflow's steps this way.
     */
    static final String DRY_RUN_ENV = "XFERBENCH_PERF_GATE_DRY_RUN";

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = "--update-baseline", description = "Accept the current numbers: rewrite the baseline (commit it).")
    boolean update;

    @Option(names = "--compare", arity = "2", paramLabel = "FILE",
            description = "Compare two saved JMH result files (or a baseline and a result file); run nothing. "
                    + "The run's environment rules apply, with the second file's results in place of a run here.")
    List<Path> compare;

    @Option(names = "--counts-only", description = "Gate only the deterministic syscall counts (ratios are shown, not gated); "
            + "what CI uses on shared machines.")
    boolean countsOnly;

    @Option(names = "--baseline", paramLabel = "FILE", description = "The baseline (default: ${DEFAULT-VALUE}).")
    Path baselineFile = DEFAULT_BASELINE;

    @Option(names = "--verdict-json", paramLabel = "FILE", converter = Converters.OutputFile.class, description = "Write every verdict as JSON.")
    Path verdictJson;

    @Option(names = "--summary-markdown", paramLabel = "FILE", converter = Converters.OutputFile.class,
            description = "Write a short Markdown summary naming every regression (also written to $GITHUB_STEP_SUMMARY when set).")
    Path summaryMarkdown;

    @Option(names = "--junit-xml", paramLabel = "FILE", converter = Converters.OutputFile.class, description = "Write JUnit XML: one test case per gated benchmark row.")
    Path junitXml;

    @Option(names = "--full-table", description = "Print every verdict, not only the failing ones and the summary.")
    boolean fullTable;

    @Option(names = "--results", paramLabel = "FILE", converter = Converters.OutputFile.class, description = "Keep JMH's JSON results of this run here.")
    Path results;

    @Option(names = "--jmh-log", paramLabel = "FILE", converter = Converters.OutputFile.class, description = "Where JMH's own output goes (default: ${DEFAULT-VALUE}).")
    Path jmhLog = DEFAULT_JMH_LOG;

    @Option(names = "--benchmarks", split = ",", paramLabel = "NAME",
            description = "Only these benchmarks (simple class names, e.g. FileToSocketBenchmark).")
    List<String> benchmarks;

    @Option(names = "--methods", split = ",", paramLabel = "ID", description = "Only these method, relay or reader ids.")
    List<String> methods;

    @Option(names = "--sizes", split = ",", paramLabel = "BYTES", description = "Run every benchmark at these sizes instead.")
    List<String> sizes;

    @Option(names = "--warmup-iterations", paramLabel = "N", description = "JMH warm-up iterations (default: the suite's).")
    Integer warmups;

    @Option(names = "--iterations", paramLabel = "N", description = "JMH measured iterations (default: the suite's).")
    Integer iterations;

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "Append a JVM argument to the JMH forks (repeatable).")
    List<String> jvmArgs = new ArrayList<>();

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        return Cli.run(new PerfGate(), args);
    }

    @Override
    public Integer call() {
        try {
            return compare != null ? compareFiles() : gate();
        } catch (IllegalArgumentException e) {
            throw e;   // a usage error: Cli prints it in one line, exit 2
        } catch (Exception e) {
            System.err.println("perf-gate: could not run: " + Cli.describe(e));
            return GateReport.EXIT_COULD_NOT_RUN;
        }
    }

    /**
     * The run's rules for the environment, with the second file's results in place of a run here: counts from another
     * JDK, kernel or Netty are refused, ratios from another host are not judged.
     */
    private int compareFiles() throws Exception {
        Path a = compare.get(0);
        Path b = compare.get(1);
        Baseline baseline = MeasuredIn.asBaseline(a);
        MeasuredIn current = MeasuredIn.of(b);
        Optional<String> refusal = current.counts() == null
                ? Optional.of(b + " does not record what its counts depend on (JDK, kernel, Netty)")
                : baseline.refusal(current.counts(), current.where(), a);
        if (refusal.isPresent()) {
            System.err.println("perf-gate: could not run: " + refusal.get());
            return GateReport.EXIT_COULD_NOT_RUN;
        }
        List<Verdict> verdicts = new GateComparator(baseline.policy()).compare(baseline.results(), JmhResults.read(b));
        Optional<String> ratios = current.host() == null
                ? Optional.of("not judged: " + b + " does not record the host its ratios were measured on")
                : baseline.ratioRefusal(current.host(), current.where(), a);
        if (ratios.isPresent()) {
            verdicts = ratiosNotJudged(verdicts, ratios.get(), a);
        }
        return finish(new GateReport(verdicts));
    }

    private int gate() throws Exception {
        GateSuite suite = suite();
        if ("1".equals(System.getenv(DRY_RUN_ENV))) {
            System.out.println("perf-gate: dry run (" + DRY_RUN_ENV + "=1): would " + (update ? "measure a baseline into " : "judge against ")
                    + baselineFile + " (" + (Files.exists(baselineFile) ? "present" : "absent") + ") " + suite.runs() + " benchmark runs of "
                    + suite.benchmarks().stream().map(GateBenchmark::simpleName).toList() + (countsOnly ? ", counts only" : ""));
            return GateReport.EXIT_OK;
        }
        Baseline baseline = null;
        if (!update) {
            if (!Files.exists(baselineFile)) {
                System.err.println("perf-gate: could not run: no baseline at " + baselineFile + "; create one with --update-baseline");
                return GateReport.EXIT_COULD_NOT_RUN;
            }
            baseline = Baseline.read(baselineFile);
            Optional<String> refusal = baseline.refusal(CountEnvironment.current(), baselineFile);
            if (refusal.isPresent()) {
                System.err.println("perf-gate: could not run: " + refusal.get());
                return GateReport.EXIT_COULD_NOT_RUN;
            }
        }
        if (!PerfSyscallCounter.availability().isAvailable()) {
            System.err.println("perf-gate: could not run: " + PerfSyscallCounter.availability().unavailableReason());
            return GateReport.EXIT_COULD_NOT_RUN;
        }
        // JMH's results go to a temp file unless asked to keep them; it is gone on every path out of here.
        Path out = results != null ? results : Files.createTempFile("perf-gate", ".json");
        if (results == null) {
            out.toFile().deleteOnExit();   // SIGTERM and Ctrl-C too
        }
        try {
            return judge(suite, out, baseline);
        } finally {
            if (results == null) {
                Files.deleteIfExists(out);
            }
        }
    }

    private GateSuite suite() {
        GateSuite suite = GateSuite.defaults().withJvmArgs(jvmArgs);
        if (benchmarks != null) {
            suite = suite.onlyBenchmarks(benchmarks);
        }
        if (methods != null) {
            suite = suite.onlyMethods(methods);
        }
        if (sizes != null) {
            suite = suite.withSizes(sizes);
        }
        if (warmups != null || iterations != null) {
            suite = suite.withIterations(warmups != null ? warmups : suite.warmupIterations(),
                    iterations != null ? iterations : suite.iterations());
        }
        if (suite.benchmarks().isEmpty()) {
            throw new IllegalArgumentException("nothing to run: no benchmark has any of the methods " + methods);
        }
        return suite;
    }

    private int judge(GateSuite suite, Path out, Baseline baseline) throws Exception {
        runSuite(suite, out);
        List<BenchmarkResult> current = JmhResults.read(out);
        if (current.isEmpty()) {
            System.err.println("perf-gate: could not run: JMH produced no results (see " + jmhLog + ")");
            return GateReport.EXIT_COULD_NOT_RUN;
        }

        if (update) {
            Baseline.write(baselineFile, GatePolicy.DEFAULT, CountEnvironment.current(), HostFingerprint.current(),
                    new Baseline.Environment(EnvironmentInfo.describe(null), suite), out);
            System.out.println("perf-gate: baseline written to " + baselineFile + " (" + current.size() + " results); commit it");
            return GateReport.EXIT_OK;
        }

        GateComparator comparator = new GateComparator(baseline.policy());
        List<BenchmarkResult> expected = baseline.results();
        if (benchmarks != null || methods != null || sizes != null) {
            // Narrowed by the command line: what it left out was not asked for. The full suite keeps every baseline
            // row, so a method that stops running is still missing there.
            expected = expected.stream().filter(suite::covers).toList();
            System.out.println("perf-gate: a narrowed suite: judged against the " + expected.size() + " of "
                    + baseline.results().size() + " baseline rows it runs");
        }
        List<Verdict> verdicts = comparator.compare(expected, current);
        Optional<String> otherHost = baseline.ratioRefusal(HostFingerprint.current(), "here", baselineFile);
        if (countsOnly) {
            verdicts = ratiosAsInfo(verdicts);
        } else if (otherHost.isPresent()) {
            verdicts = ratiosNotJudged(verdicts, otherHost.get(), baselineFile);
        } else {
            verdicts = confirmRatioRegressions(verdicts, baseline, suite, comparator);
        }
        return finish(new GateReport(verdicts));
    }

    private void runSuite(GateSuite suite, Path out) throws Exception {
        Files.createDirectories(jmhLog.toAbsolutePath().getParent());
        Files.deleteIfExists(jmhLog);
        System.err.println("perf-gate: running " + suite.runs() + " benchmark runs of " + suite.benchmarks().size()
                + " benchmarks (JMH's output: " + jmhLog + ")");
        suite.run(out, jmhLog);
    }

    /**
     * A ratio regression stands only if a second run shows it too; one-off interference (another tenant's burst
     * during one benchmark) does not survive a re-run.
     */
    private List<Verdict> confirmRatioRegressions(List<Verdict> verdicts, Baseline baseline, GateSuite suite,
                                                  GateComparator comparator) throws Exception {
        List<String> suspects = verdicts.stream()
                .filter(v -> v.kind() == Kind.RATIO && v.outcome() == Outcome.REGRESSED).map(Verdict::key).toList();
        if (suspects.isEmpty()) {
            return verdicts;
        }
        System.err.println("perf-gate: re-running to confirm " + suspects.size() + " ratio regression(s): " + suspects);
        Path again = Files.createTempFile("perf-gate-confirm", ".json");
        again.toFile().deleteOnExit();
        List<Verdict> recheck;
        try {
            runSuite(suite.onlyKeys(baseline.results(), suspects, baseline.policy()), again);
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
                        + (v.outcome() == Outcome.OK ? "" : "; would be " + v.outcome().name().toLowerCase(Locale.ROOT))) : v)
                .toList();
    }

    /**
     * Ratios the baseline cannot judge (another host, or one it does not record) are shown with the reason and never
     * re-run; one line says so and how to measure a baseline where the gate runs.
     */
    private static List<Verdict> ratiosNotJudged(List<Verdict> verdicts, String reason, Path baselineFile) {
        System.out.println("perf-gate: ratios " + reason + "; the ratio baseline is per host: measure one on the host that"
                + " runs the gate with " + Baseline.ratioBaselineCommand(baselineFile) + " (counts are judged regardless)");
        return verdicts.stream().map(v -> v.kind() == Kind.RATIO ? v.withOutcome(Outcome.INFO, reason) : v).toList();
    }

    private int finish(GateReport report) throws Exception {
        System.out.print(fullTable ? report.table() : report.shortTable());
        if (verdictJson != null) {
            report.writeJson(verdictJson);
        }
        for (Path md : markdownTargets()) {
            report.appendMarkdown(md);
        }
        if (junitXml != null) {
            report.writeJunitXml(junitXml);
        }
        return report.exitCode();
    }

    /** --summary-markdown, and GitHub's job summary when the job runs on Actions (appended there, as GitHub expects). */
    private List<Path> markdownTargets() throws Exception {
        List<Path> out = new ArrayList<>();
        if (summaryMarkdown != null) {
            Files.deleteIfExists(summaryMarkdown);
            out.add(summaryMarkdown);
        }
        String step = System.getenv("GITHUB_STEP_SUMMARY");
        if (step != null && !step.isBlank()) {
            out.add(Path.of(step));
        }
        return out;
    }
}
