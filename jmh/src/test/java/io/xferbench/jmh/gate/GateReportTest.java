package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.jmh.gate.Verdict.Kind;
import io.xferbench.jmh.gate.Verdict.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The report's Markdown summary, JUnit XML and short console output name exactly what failed. */
class GateReportTest {
    private static final String DOWNLOAD = "io.xferbench.jmh.FileToSocketBenchmark.transfer[method=transfer-to,size=1048576]";
    private static final String UPLOAD = "io.xferbench.jmh.SocketToFileBenchmark.receive[buffer=65536,method=splice,size=1048576]";
    private static final String RELAY = "io.xferbench.jmh.ProxyRelayBenchmark.relay[buffer=65536,relay=copy,size=1048576]";
    private static final String READ = "io.xferbench.jmh.FileReadBenchmark.read[block=131072,reader=mmap,size=1048576]";

    @TempDir
    Path tmp;

    private static Verdict count(String key, String metric, double base, double cur, Outcome o) {
        return new Verdict(key, metric, Kind.COUNT, base, cur, (cur - base) / base, "±0.50 (max(5%, 0.50))", o, "");
    }

    private static GateReport failing() {
        return new GateReport(List.of(
                count(DOWNLOAD, "syscalls.pread64/op", 1, 257, Outcome.REGRESSED),
                count(DOWNLOAD, "syscalls.sendfile64/op", 1, 0.5, Outcome.IMPROVED),
                new Verdict(DOWNLOAD, "score (ops/s)", Kind.SCORE, 3000, 1000, -0.66, "not gated", Outcome.INFO, ""),
                count(UPLOAD, "syscalls.splice/op", 32, 32, Outcome.OK),
                new Verdict(RELAY, "score", Kind.SCORE, 10, Double.NaN, Double.NaN, "", Outcome.MISSING, "in the baseline but not in this run"),
                new Verdict(READ, "score", Kind.SCORE, Double.NaN, 5, Double.NaN, "", Outcome.NEW, "not in the baseline")));
    }

    @Test
    void theMarkdownSummaryNamesEveryRegressedBenchmarkAndNothingElse() {
        String md = failing().markdown();
        assertThat(md).startsWith("### perf-gate: FAIL")
                .contains("| `FileToSocketBenchmark.transfer[method=transfer-to,size=1048576]` | syscalls.pread64/op | 1.000 | 257.000 |")
                .contains("| `ProxyRelayBenchmark.relay[buffer=65536,relay=copy,size=1048576]` | score |")
                .contains("±0.50").doesNotContain("sendfile64").doesNotContain("SocketToFileBenchmark").doesNotContain("FileReadBenchmark");
        assertThat(md.lines().filter(l -> l.startsWith("| `"))).hasSize(2);
    }

    @Test
    void aPassingRunSaysSoInMarkdown() {
        String md = new GateReport(List.of(count(UPLOAD, "syscalls.splice/op", 32, 32, Outcome.OK))).markdown();
        assertThat(md).startsWith("### perf-gate: PASS").contains("No regression.").doesNotContain("| `");
    }

    @Test
    void markdownIsAppendedAsGithubsStepSummaryExpects() throws Exception {
        Path f = Files.writeString(tmp.resolve("summary.md"), "earlier step\n");
        failing().appendMarkdown(f);
        assertThat(Files.readString(f)).startsWith("earlier step\n### perf-gate: FAIL");
    }

    @Test
    void junitXmlHasOneTestCasePerBenchmarkRowAndFailuresForRegressions() throws Exception {
        Path xml = tmp.resolve("gate.xml");
        failing().writeJunitXml(xml);

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile());
        Element suite = doc.getDocumentElement();
        assertThat(suite.getTagName()).isEqualTo("testsuite");
        assertThat(suite.getAttribute("tests")).isEqualTo("4");
        assertThat(suite.getAttribute("failures")).isEqualTo("2");
        assertThat(suite.getAttribute("skipped")).isEqualTo("1");
        NodeList cases = suite.getElementsByTagName("testcase");
        List<String> failed = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < cases.getLength(); i++) {
            Element tc = (Element) cases.item(i);
            String id = tc.getAttribute("classname") + tc.getAttribute("name");
            names.add(id);
            NodeList f = tc.getElementsByTagName("failure");
            if (f.getLength() > 0) {
                failed.add(id + " " + ((Element) f.item(0)).getAttribute("message"));
            }
        }
        assertThat(names).containsExactly(DOWNLOAD, UPLOAD, RELAY, READ);
        assertThat(failed).containsExactly(DOWNLOAD + " syscalls.pread64/op regressed", RELAY + " score missing");
        assertThat(((Element) cases.item(0)).getAttribute("classname")).isEqualTo("io.xferbench.jmh.FileToSocketBenchmark.transfer");
        assertThat(((Element) cases.item(0)).getElementsByTagName("failure").item(0).getTextContent())
                .contains("syscalls.pread64/op: 1.000 -> 257.000");
    }

    @Test
    void theShortConsoleOutputShowsOnlyFailuresAndEndsWithWhatFailed() {
        GateReport r = failing();
        String out = r.shortTable();
        assertThat(out).contains("syscalls.pread64/op").doesNotContain("sendfile64").doesNotContain("score (ops/s)")
                .doesNotContain("SocketToFileBenchmark");
        List<String> lines = out.lines().toList();
        assertThat(lines.get(lines.size() - 2)).startsWith("perf-gate: FAIL");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("perf-gate: failed: "
                + "FileToSocketBenchmark.transfer[method=transfer-to,size=1048576] (syscalls.pread64/op); "
                + "ProxyRelayBenchmark.relay[buffer=65536,relay=copy,size=1048576] (score missing)");
        assertThat(r.table()).contains("sendfile64").contains("score (ops/s)");

        String pass = new GateReport(List.of(count(UPLOAD, "syscalls.splice/op", 32, 32, Outcome.OK))).shortTable();
        assertThat(pass.lines()).hasSize(1).first().asString().startsWith("perf-gate: PASS");
    }

    @Test
    void aFigureWiderThanItsColumnMovesTheColumnNotTheColumnsAfterIt() {
        // +25600.0% is wider than the delta column's nine places; a long metric is wider than its 32.
        GateReport r = new GateReport(List.of(count(DOWNLOAD, "syscalls.pread64/op", 1, 257, Outcome.REGRESSED),
                count(DOWNLOAD, "syscalls.a_metric_name_wider_than_its_column/op", 1, 1, Outcome.OK)));
        List<String> lines = r.table().lines().toList();
        assertThat(lines.get(1)).startsWith("  metric ");
        for (String column : List.of("delta", "threshold", "verdict")) {
            int end = lines.get(1).indexOf(column) + (column.equals("delta") ? column.length() : 0);
            for (String row : lines.subList(2, 4)) {
                String cell = column.equals("delta") ? "%" : column.equals("threshold") ? "±0.50" : row.contains("regressed") ? "regressed" : "ok";
                int at = column.equals("delta") ? row.indexOf(cell) + 1 : row.indexOf(cell);
                assertThat(at).as(column + " in " + row).isEqualTo(end);
            }
        }
    }
}
