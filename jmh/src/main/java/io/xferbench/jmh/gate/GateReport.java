package io.xferbench.jmh.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.core.table.MarkdownTable;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.TextTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The gate's verdicts: for people a table per benchmark (all of it, or only what failed) and a one-line summary,
 * a Markdown summary for CI job pages; for machines JSON and JUnit XML (one test case per benchmark row).
 */
public record GateReport(List<Verdict> verdicts) {
    /** Exit codes of scripts/perf-gate. */
    public static final int EXIT_OK = 0;
    public static final int EXIT_REGRESSION = 1;
    public static final int EXIT_COULD_NOT_RUN = 2;

    public boolean failed() {
        return verdicts.stream().anyMatch(v -> v.outcome().fails());
    }

    public int exitCode() {
        return failed() ? EXIT_REGRESSION : EXIT_OK;
    }

    public long count(Verdict.Outcome outcome) {
        return verdicts.stream().filter(v -> v.outcome() == outcome).count();
    }

    public String summary() {
        return String.format(Locale.ROOT, "perf-gate: %s — %d checks: %d ok, %d regressed, %d improved, %d new, %d missing (scores shown, never gated)",
                failed() ? "FAIL" : "PASS",
                verdicts.stream().filter(v -> v.outcome() != Verdict.Outcome.INFO).count(),
                count(Verdict.Outcome.OK), count(Verdict.Outcome.REGRESSED), count(Verdict.Outcome.IMPROVED),
                count(Verdict.Outcome.NEW), count(Verdict.Outcome.MISSING));
    }

    /** Every verdict, a table per benchmark row, then the summary. */
    public String table() {
        return table(v -> true) + summary() + '\n';
    }

    /** Only the failing verdicts (under their rows' names), then the summary and, on failure, what failed in one line. */
    public String shortTable() {
        return table(v -> v.outcome().fails()) + summary() + '\n' + (failed() ? "perf-gate: failed: " + String.join("; ", failures()) + '\n' : "");
    }

    /** Each failing benchmark row with its failing metrics: {@code Foo.transfer[method=mmap,size=65536] (syscalls.read/op)}. */
    public List<String> failures() {
        return byKey().entrySet().stream()
                .filter(e -> e.getValue().stream().anyMatch(v -> v.outcome().fails()))
                .map(e -> shortKey(e.getKey()) + " (" + e.getValue().stream().filter(v -> v.outcome().fails())
                        .map(v -> v.outcome() == Verdict.Outcome.MISSING ? v.metric() + " missing" : v.metric())
                        .collect(Collectors.joining(", ")) + ")")
                .toList();
    }

    private Map<String, List<Verdict>> byKey() {
        return verdicts.stream().collect(Collectors.groupingBy(Verdict::key, LinkedHashMap::new, Collectors.toList()));
    }

    /** The key without the package: {@code FileToSocketBenchmark.transfer[method=mmap,size=65536]}. */
    static String shortKey(String key) {
        int bracket = key.indexOf('[');
        String name = bracket < 0 ? key : key.substring(0, bracket);
        int method = name.lastIndexOf('.');
        int type = method <= 0 ? -1 : name.lastIndexOf('.', method - 1);
        return key.substring(type + 1);
    }

    private String table(Predicate<Verdict> shown) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, List<Verdict>> e : byKey().entrySet()) {
            List<Verdict> rows = e.getValue().stream().filter(shown).toList();
            if (rows.isEmpty()) {
                continue;
            }
            b.append(e.getKey()).append('\n');
            // Minimum widths keep every benchmark's columns in line with the others'.
            Table t = Table.of(Column.left("metric").atLeast(32), Column.right("baseline").atLeast(13),
                    Column.right("current").atLeast(13), Column.right("delta").atLeast(8), Column.left("threshold").atLeast(33),
                    Column.left("verdict"));
            for (Verdict v : rows) {
                t.row(v.metric(), num(v.baseline()), num(v.current()), pct(v.delta()), v.threshold(),
                        v.outcome().name().toLowerCase(Locale.ROOT) + (v.note().isEmpty() ? "" : " (" + v.note() + ")"));
            }
            TextTable.aligned(t).lines().forEach(line -> b.append("  ").append(line).append('\n'));
        }
        return b.toString();
    }

    /** A short Markdown summary: the verdict, the counts, and a table of every failing verdict. */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("### perf-gate: ").append(failed() ? "FAIL" : "PASS").append("\n\n");
        b.append(summary().replaceFirst("^perf-gate: \\S+ — ", "")).append("\n\n");
        List<Verdict> failing = verdicts.stream().filter(v -> v.outcome().fails()).toList();
        if (failing.isEmpty()) {
            return b.append("No regression.\n").toString();
        }
        Table t = Table.of(Column.left("benchmark"), Column.left("metric"), Column.right("baseline"), Column.right("current"),
                Column.right("delta"), Column.left("threshold"), Column.left("verdict"));
        for (Verdict v : failing) {
            t.row("`" + shortKey(v.key()) + "`", v.metric(), num(v.baseline()), num(v.current()), pct(v.delta()), v.threshold(),
                    v.outcome().name().toLowerCase(Locale.ROOT));
        }
        return b.append(MarkdownTable.table(t)).toString();
    }

    /** Appends {@link #markdown()} ($GITHUB_STEP_SUMMARY collects what every step appends). */
    public void appendMarkdown(Path file) throws IOException {
        Files.writeString(file, markdown() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * JUnit XML: one test case per benchmark row (class name = benchmark, name = its params), failed when any of its
     * verdicts fails, skipped when it is not in the baseline yet.
     */
    public void writeJunitXml(Path file) throws IOException {
        try {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
            Element suite = doc.createElement("testsuite");
            doc.appendChild(suite);
            Map<String, List<Verdict>> rows = byKey();
            long failures = rows.values().stream().filter(vs -> vs.stream().anyMatch(v -> v.outcome().fails())).count();
            long skipped = rows.values().stream().filter(vs -> vs.stream().allMatch(v -> v.outcome() == Verdict.Outcome.NEW)).count();
            suite.setAttribute("name", "perf-gate");
            suite.setAttribute("tests", String.valueOf(rows.size()));
            suite.setAttribute("failures", String.valueOf(failures));
            suite.setAttribute("errors", "0");
            suite.setAttribute("skipped", String.valueOf(skipped));
            for (Map.Entry<String, List<Verdict>> e : rows.entrySet()) {
                Element tc = doc.createElement("testcase");
                String key = e.getKey();
                int bracket = key.indexOf('[');
                tc.setAttribute("classname", bracket < 0 ? key : key.substring(0, bracket));
                tc.setAttribute("name", bracket < 0 ? key : key.substring(bracket));
                List<Verdict> failing = e.getValue().stream().filter(v -> v.outcome().fails()).toList();
                if (!failing.isEmpty()) {
                    Element f = doc.createElement("failure");
                    f.setAttribute("message", failing.stream().map(v -> v.metric() + " " + v.outcome().name().toLowerCase(Locale.ROOT))
                            .collect(Collectors.joining(", ")));
                    f.setAttribute("type", "regression");
                    f.setTextContent(failing.stream().map(v -> String.format(Locale.ROOT, "%s: %s -> %s (%s; %s)%s", v.metric(),
                            num(v.baseline()), num(v.current()), pct(v.delta()), v.threshold(), v.note().isEmpty() ? "" : " " + v.note()))
                            .collect(Collectors.joining("\n")));
                    tc.appendChild(f);
                } else if (e.getValue().stream().allMatch(v -> v.outcome() == Verdict.Outcome.NEW)) {
                    Element s = doc.createElement("skipped");
                    s.setAttribute("message", "not in the baseline yet");
                    tc.appendChild(s);
                }
                suite.appendChild(tc);
            }
            Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.INDENT, "yes");
            t.transform(new DOMSource(doc), new StreamResult(file.toFile()));
        } catch (ParserConfigurationException | TransformerException e) {
            throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    public void writeJson(Path file) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(),
                new Written(!failed(), exitCode(), summary(), verdicts));
    }

    /** The JSON report: the outcome, then every verdict. */
    private record Written(boolean passed, int exitCode, String summary, List<Verdict> verdicts) {
    }

    private static String num(double d) {
        if (Double.isNaN(d)) {
            return "-";
        }
        return Math.abs(d) >= 1000 ? String.format(Locale.ROOT, "%.0f", d) : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String pct(double d) {
        if (Double.isNaN(d)) {
            return "-";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%+.1f%%", d * 100);
    }
}
