package io.xferbench.jmh.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.TextTable;
import io.xferbench.jmh.gate.JmhResults;
import io.xferbench.jmh.profile.CpuResults;
import io.xferbench.jmh.profile.SyscallResults;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Renders a JMH JSON result file ({@code -rf json}) as one table: benchmark, params, ops/s ± error, MiB/s,
 * syscalls per op by name, context switches per op, syscalls per MiB, and the harness floor per op when the
 * run has {@code ControlBenchmark}. Markdown table syntax, so it pastes into docs as is.
 *
 * <p>Usage: {@code JmhReport <result.json> [--min <calls/op>]}: syscalls below {@code --min} per op (default
 * 0.05) or below 0.5% of the op's total are summed into "rest" instead of being named. Run it with the same
 * JVM flags ({@code JvmFlags}) as the benchmarks: it asks the methods with no result whether they are available here.
 */
@Command(name = "jmh-report", mixinStandardHelpOptions = true,
        description = "Render a JMH JSON result (-rf json) as one table with the syscalls per op.")
public final class JmhReport implements Callable<Integer> {
    private static final String PACKAGE = "io.xferbench.jmh.";
    private static final String CONTROL = "ControlBenchmark.noop";
    private static final String FILE_TO_SOCKET = "FileToSocketBenchmark.transfer";
    private static final Set<String> SIZE_PARAMS = Set.of("size", "buffer", "block");

    /** Columns shown only where a row has their result. */
    private enum WhereMeasured {
        CPU(CpuResults.PER_GIB, "CPU ms/GiB"),
        // Only where a row had an SQPOLL thread: its CPU is in "CPU ms/GiB" and shown apart here.
        SQ_THREAD(CpuResults.SQPOLL_PER_GIB, "of it SQ thread"),
        // JMH's own gc profiler (-prof gc): heap bytes allocated per op.
        ALLOCATION("gc.alloc.rate.norm", "B alloc/op");

        final String key;
        final String label;

        WhereMeasured(String key, String label) {
            this.key = key;
            this.label = label;
        }
    }

    @Parameters(index = "0", paramLabel = "RESULT.json", description = "JMH's JSON result file.")
    Path file;

    @Option(names = "--min", defaultValue = "0.05", paramLabel = "CALLS",
            description = "Syscalls under this many per op (or 0.5%% of the op's) are summed into \"rest\"; default ${DEFAULT-VALUE}.")
    double min;

    public static void main(String[] args) {
        System.exit(Cli.run(new JmhReport(), args));
    }

    @Override
    public Integer call() throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        if (!root.isArray()) {
            throw new IOException(file + ": not a JMH JSON result (an array of benchmark runs expected)");
        }
        render(root, min, System.out);
        return 0;
    }

    /** One benchmark run (one param combination) from the JSON. */
    record Row(String benchmark, Map<String, String> params, double score, double error, String unit,
               Map<String, Double> secondary) {

        double secondary(String label) {
            Double v = secondary.get(label);
            return v == null ? Double.NaN : v;
        }

        String paramText() {
            List<String> parts = new ArrayList<>();
            params.forEach((k, v) -> parts.add(k + "=" + (SIZE_PARAMS.contains(k) ? sizeText(v) : v)));
            return String.join(" ", parts);
        }
    }

    static List<Row> rows(JsonNode root) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode run : root) {
            String benchmark = run.path("benchmark").asText();
            if (benchmark.startsWith(PACKAGE)) {
                benchmark = benchmark.substring(PACKAGE.length());
            }
            Map<String, String> params = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = run.path("params").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                params.put(e.getKey(), e.getValue().asText());
            }
            JsonNode primary = run.path("primaryMetric");
            Map<String, Double> secondary = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = run.path("secondaryMetrics").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                secondary.put(e.getKey(), JmhResults.number(e.getValue().path("score")));
            }
            rows.add(new Row(benchmark, params, JmhResults.number(primary.path("score")),
                    JmhResults.number(primary.path("scoreError")), primary.path("scoreUnit").asText(), secondary));
        }
        return rows;
    }

    static void render(JsonNode root, double min, PrintStream out) {
        List<Row> rows = rows(root);
        if (rows.isEmpty()) {
            out.println("No results in the file (every benchmark failed or none ran).");
            return;
        }
        // The floor as a rate: what the harness and JVM call per second while a benchmark makes no call.
        double floorPerSecond = rows.stream().filter(r -> r.benchmark().equals(CONTROL))
                .mapToDouble(r -> r.secondary(SyscallResults.PER_SECOND)).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
        boolean uring = rows.stream().anyMatch(r -> r.secondary(SyscallResults.IO_URING) > 0);
        List<WhereMeasured> optional = Stream.of(WhereMeasured.values())
                .filter(o -> rows.stream().anyMatch(r -> r.secondary().containsKey(o.key))).toList();

        List<Column> columns = new ArrayList<>(Stream.of("benchmark", "params", "ops/s ± 99.9%", "MiB/s",
                "syscalls/op (by name)", "ctxsw/op", "syscalls/MiB").map(Column::left).toList());
        if (uring) {
            columns.add(Column.left("io_uring sqe/op"));
        }
        optional.forEach(o -> columns.add(Column.left(o.label)));
        if (!Double.isNaN(floorPerSecond)) {
            columns.add(Column.left("floor/op"));
        }
        Table table = Table.of(columns);
        for (Row r : rows) {
            List<String> line = new ArrayList<>();
            line.add(r.benchmark());
            line.add(r.paramText());
            line.add(fmt(r.score()) + (Double.isNaN(r.error()) ? "" : " ± " + fmt(r.error())));
            line.add(fmt(mibPerSecond(r)));
            line.add(syscallText(r, min));
            line.add(fmt(r.secondary(SyscallResults.CTXSW)));
            line.add(fmt(r.secondary(SyscallResults.PER_MIB)));
            if (uring) {
                line.add(fmt(r.secondary(SyscallResults.IO_URING)));
            }
            optional.forEach(o -> line.add(fmt(r.secondary(o.key))));
            if (!Double.isNaN(floorPerSecond)) {
                line.add(r.benchmark().equals(CONTROL) ? "-" : fmt(floorPerSecond / r.score()));
            }
            table.row(line);
        }
        notes(table, root, rows, min, floorPerSecond);
        out.print(TextTable.piped(table));
    }

    /** Under the table: the run's JMH and JVM settings, what the syscall columns count, the floor, methods not run. */
    private static void notes(Table table, JsonNode root, List<Row> rows, double min, double floorPerSecond) {
        boolean counted = rows.stream().anyMatch(r -> r.secondary().containsKey(SyscallResults.TOTAL));
        table.note("");
        JsonNode first = root.get(0);
        table.note(String.format(Locale.ROOT, "JMH %s, %s %s (%s), %d fork(s), warm-up %d × %s, measurement %d × %s; os.version %s.",
                first.path("jmhVersion").asText(), first.path("vmName").asText(), first.path("vmVersion").asText(),
                first.path("jdkVersion").asText(), first.path("forks").asInt(), first.path("warmupIterations").asInt(),
                first.path("warmupTime").asText(), first.path("measurementIterations").asInt(), first.path("measurementTime").asText(),
                System.getProperty("os.version")));
        if (!counted) {
            table.note("No syscall counts: run with -prof syscalls (where perf cannot count, the JMH log has one line saying why).");
        } else {
            table.note("Syscalls are counted by perf for the whole benchmark JVM over the measurement iterations, ÷ ops; "
                    + "names under " + fmt(min) + "/op or 0.5% of the row's total are summed as 'rest'.");
        }
        if (!Double.isNaN(floorPerSecond)) {
            table.note("Harness floor (" + CONTROL + "): " + fmt(floorPerSecond) + " syscalls/s from JMH and the JVM with no work; "
                    + "floor/op = that ÷ the row's ops/s, the share of each syscalls/op figure that is not the benchmark's.");
        }
        missingMethods(rows).forEach(table::note);
        MissingTlsRows.notes(rows).forEach(table::note);
    }

    private static double mibPerSecond(Row r) {
        double aux = r.secondary("MiB");
        if (!Double.isNaN(aux)) {
            return aux;
        }
        String size = r.params().get("size");
        return size == null ? Double.NaN : r.score() * Long.parseLong(size) / (1024.0 * 1024.0);
    }

    static String syscallText(Row r, double min) {
        double total = r.secondary(SyscallResults.TOTAL);
        if (Double.isNaN(total)) {
            return "-";
        }
        List<Map.Entry<String, Double>> named = new ArrayList<>();
        for (Map.Entry<String, Double> e : r.secondary().entrySet()) {
            String k = e.getKey();
            if (k.startsWith(SyscallResults.PREFIX) && k.endsWith(SyscallResults.PER_OP) && !k.equals(SyscallResults.TOTAL)) {
                named.add(Map.entry(k.substring(SyscallResults.PREFIX.length(), k.length() - SyscallResults.PER_OP.length()), e.getValue()));
            }
        }
        named.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()));
        StringBuilder sb = new StringBuilder(fmt(total));
        double perSecond = r.secondary(SyscallResults.PER_SECOND);
        if (fmt(total).equals("0") && !Double.isNaN(perSecond)) {
            // An op far shorter than a syscall (the control): the per-second rate says more.
            sb.append(" (").append(fmt(perSecond)).append("/s)");
        }
        double rest = 0;
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Double> e : named) {
            // Named if it matters for this op: at least min per op and at least 0.5% of the op's calls.
            if (e.getValue() >= min && e.getValue() >= total * 0.005) {
                parts.add(e.getKey() + " " + fmt(e.getValue()));
            } else {
                rest += e.getValue();
            }
        }
        if (!fmt(rest).equals("0")) {
            parts.add("rest " + fmt(rest));
        }
        if (!parts.isEmpty()) {
            sb.append(": ").append(String.join(", ", parts));
        }
        return sb.toString();
    }

    /** Download methods that have no FileToSocketBenchmark row, with the reason when it is "unavailable here". */
    private static List<String> missingMethods(List<Row> rows) {
        Set<String> ran = new LinkedHashSet<>();
        for (Row r : rows) {
            if (r.benchmark().equals(FILE_TO_SOCKET) && r.params().containsKey("method")) {
                ran.add(r.params().get("method"));
            }
        }
        List<String> missing = new ArrayList<>();
        if (ran.isEmpty()) {
            return missing;
        }
        for (SenderMethod m : DownloadMethods.all()) {
            if (ran.contains(m.id())) {
                continue;
            }
            String why = m.availability().isAvailable()
                    ? "not selected, or failed (see the JMH log)"
                    : "unavailable here: " + m.availability().unavailableReason();
            missing.add("No " + FILE_TO_SOCKET + " result for method " + m.id() + ": " + why);
        }
        return missing;
    }

    /** Three significant figures or so; "0" for what rounds to nothing; "-" for no value. */
    static String fmt(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "-";
        }
        double a = Math.abs(v);
        if (a < 0.0005) {
            return "0";
        }
        if (a < 1) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        if (a < 10) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        if (a < 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String sizeText(String v) {
        try {
            return Sizes.format(Long.parseLong(v));
        } catch (RuntimeException e) {
            return v;
        }
    }
}
