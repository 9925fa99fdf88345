package io.xferbench.client.compare;

import io.xferbench.client.report.Environments;
import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.ClientMain;
import io.xferbench.client.UsageErrorsTest;
import io.xferbench.client.render.BarChart;
import io.xferbench.client.render.ReportCharts;
import io.xferbench.client.render.ReportFormat;
import io.xferbench.client.render.ReportWriter;
import io.xferbench.client.report.Report;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.method.Direction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RenderCompareTest {

    private static MethodResult row(String method, double median, double min, double max) {
        return new MethodResult(MethodResult.Row.served(Direction.DOWNLOAD, method, 64 * Sizes.MiB),
                new MethodResult.Throughput(192 * Sizes.MiB, 3, 1.0, median, min, max, List.of(min, median, max), null, null, null),
                new MethodResult.Latency(1, 2, 2), cpu(), cpu(), MethodResult.Syscalls.unavailable("perf not installed"),
                null, null, MethodResult.Sharing.UNKNOWN, null, MethodResult.Status.MEASURED);
    }

    private static MethodResult.Cpu cpu() {
        return MethodResult.Cpu.of(0.1, 0.2, 10, 1, 0.1875, 3);
    }

    private static Path write(Path dir, String name, Report report) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, ReportWriter.render(report, ReportFormat.JSON));
        return file;
    }

    private static final Report A = new Report(Environments.of(Map.of()), List.of(row("stream", 700, 650, 750), row("mmap", 1600, 1400, 1800),
            row("gone", 10, 9, 11)));
    private static final Report B = new Report(Environments.of(Map.of()), List.of(row("stream", 1000, 950, 1100), row("mmap", 1650, 1500, 1700),
            MethodResult.skipped(MethodResult.Row.served(Direction.DOWNLOAD, "io-uring", 64 * Sizes.MiB), "no io_uring")));

    @Test
    void comparisonGivesTheChangeAndWhetherRangesOverlapAndTheUnmatchedRows() {
        RunComparison c = RunComparison.of(A, B);
        assertThat(c.pairs()).extracting(p -> p.a().row().method()).containsExactly("stream", "mmap");
        assertThat(c.pairs().get(0).deltaPercent()).isCloseTo(42.857, org.assertj.core.data.Offset.offset(0.01));
        assertThat(c.pairs().get(0).rangesOverlap()).isFalse();
        assertThat(c.pairs().get(1).rangesOverlap()).isTrue();
        assertThat(c.onlyA()).extracting(r -> r.row().method()).containsExactly("gone");
        assertThat(c.onlyB()).extracting(r -> r.row().method()).containsExactly("io-uring");
    }

    @Test
    void compareCommandWritesMarkdown(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("c.md");
        int exit = Cli.run(new ClientMain(), "compare", write(dir, "a.json", A).toString(), write(dir, "b.json", B).toString(),
                "--format", "markdown", "--out", out.toString());
        assertThat(exit).isZero();
        assertThat(Files.readString(out)).contains("| download | stream | 64MiB | 700 [650..750] | 1000 [950..1100] | +42.9% | apart |")
                .contains("| +3.1% | overlap |").contains("- only in A: download gone 64MiB").contains("- only in B: download io-uring 64MiB");
    }

    @Test
    void renderWritesSeveralFormatsBesideEachOther(@TempDir Path dir) throws Exception {
        int exit = Cli.run(new ClientMain(), "render", write(dir, "run.json", B).toString(), "--format", "markdown,html,csv",
                "--out", dir.resolve("again.x").toString());
        assertThat(exit).isZero();
        assertThat(Files.readString(dir.resolve("again.md"))).contains("| io-uring | 64MiB | skipped: no io_uring |");
        String html = Files.readString(dir.resolve("again.html"));
        assertThat(html).contains("<svg").contains("skipped: no io_uring").contains("<h2>Environment</h2>")
                .doesNotContain("<?xml").doesNotContain("src=").doesNotContain("href=").doesNotContain("<script");
        assertThat(Files.readString(dir.resolve("again.csv"))).startsWith("direction,method,size");
    }

    @Test
    void usageErrorsExitTwo(@TempDir Path dir) throws Exception {
        Path run = write(dir, "run.json", A);
        assertThat(Cli.run(new ClientMain(), "render", run.toString(), "--format", "pdf")).isEqualTo(Cli.USAGE);
        assertThat(Cli.run(new ClientMain(), "render", run.toString(), "--format", "table,json")).isEqualTo(Cli.USAGE);
        assertThat(Cli.run(new ClientMain(), "compare", run.toString())).isEqualTo(Cli.USAGE);
        assertThat(Cli.run(new ClientMain(), "render", dir.resolve("missing.json").toString())).isEqualTo(Cli.FAILED);
    }

    private static String compare(Path dir, Report a, Report b) throws Exception {
        Path out = dir.resolve("c.txt");
        UsageErrorsTest.Run r = UsageErrorsTest.run("compare", write(dir, "a.json", a).toString(), write(dir, "b.json", b).toString(),
                "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        return Files.readString(out);
    }

    /** --method stream,stream: each copy of a row is compared, none dropped, and the pairing is said. */
    @Test
    void repeatedRowsArePairedInOrderAndSaid(@TempDir Path dir) throws Exception {
        String out = compare(dir, new Report(Environments.of(Map.of()), List.of(row("stream", 700, 650, 750), row("stream", 800, 750, 850))),
                new Report(Environments.of(Map.of()), List.of(row("stream", 1400, 1300, 1500), row("stream", 1600, 1500, 1700))));
        assertThat(out.lines().filter(l -> l.matches("download +stream .*"))).hasSize(2).allMatch(l -> l.contains("+100.0%"));
        assertThat(out).doesNotContain("only in").contains("repeated rows, paired in order (first of A with first of B, ...): "
                + "download stream 64MiB\n");
    }

    @Test
    void differingSettingsAreNamedEachOnALine(@TempDir Path dir) throws Exception {
        Map<String, Object> one = Map.of("settings", Map.of("concurrency", 1, "verify", "crc32c", "cache", "warm"));
        Map<String, Object> four = Map.of("settings", Map.of("concurrency", 4, "verify", "length", "cache", "warm"));
        String out = compare(dir, new Report(Environments.of(one), A.results()), new Report(Environments.of(four), B.results()));
        assertThat(out).contains("settings differ, concurrency: 1 vs 4\n").contains("settings differ, verify: crc32c vs length\n")
                .doesNotContain("cache:");
        assertThat(compare(dir, new Report(Environments.of(one), A.results()), new Report(Environments.of(one), B.results()))).doesNotContain("settings differ");
    }

    /** Sizes were printed in bytes ({@code sizes: [16777216] vs [8388608]}), unlike every other report line. */
    @Test
    void differingSizesAreInBinaryUnits(@TempDir Path dir) throws Exception {
        String out = compare(dir, new Report(Environments.of(Map.of("settings", Map.of("sizes", List.of(16L << 20), "bufferSize", 65536))), A.results()),
                new Report(Environments.of(Map.of("settings", Map.of("sizes", List.of(8L << 20, 1L << 30), "bufferSize", 1 << 20))), B.results()));
        assertThat(out).contains("settings differ, sizes: 16MiB vs 8MiB,1GiB\n").contains("settings differ, bufferSize: 64KiB vs 1MiB\n");
    }

    /**
     * A single round (or a merged row) has one figure: the table said "15 [15..15]", the chart drew a zero-width
     * whisker and compare called two such rows "apart", as if outside a spread there is none of.
     */
    @Test
    void oneFigureIsShownWithoutARange(@TempDir Path dir) throws Exception {
        MethodResult once = new MethodResult(MethodResult.Row.served(Direction.DOWNLOAD, "stream", 64 * Sizes.MiB),
                new MethodResult.Throughput(64 * Sizes.MiB, 1, 1.0, 15, 15, 15, List.of(15.0), null, null, null),
                new MethodResult.Latency(1, 2, 2), cpu(), cpu(), MethodResult.Syscalls.unavailable("perf not installed"),
                null, null, MethodResult.Sharing.UNKNOWN, null, MethodResult.Status.MEASURED);
        Report report = new Report(Environments.of(Map.of()), List.of(once));
        assertThat(ReportWriter.table(report)).contains("15 (no range)").doesNotContain("[15..15]");
        assertThat(ReportWriter.render(report, "markdown")).contains("| 15 (no range) |");
        BarChart.Cell bar = ReportCharts.of(report).get(0).chart().groups().get(0).cells().get(0);
        assertThat(bar).isEqualTo(new BarChart.Bar(15, null, null, "15.0 (no range)"));
        String out = compare(dir, report, new Report(Environments.of(Map.of()), List.of(row("stream", 30, 29, 31))));
        assertThat(out.lines().filter(l -> l.startsWith("download")).findFirst().orElseThrow())
                .contains("15.0 (no range)").contains("+100.0%").endsWith("no range");
    }

    /** Two runs on different JDKs or kernel settings were compared as if only the code had changed. */
    @Test
    void differingMachinesAreNamedEachOnALine(@TempDir Path dir) throws Exception {
        Map<String, Object> old = Map.of("client", Map.of("jdk", "Temurin 21", "kernel", "Linux 6.18"),
                "server", Map.of("jdk", "Temurin 21", "kernel", "Linux 6.18", "tuning", Map.of("cgroupMemoryMax", "max")),
                "network", Map.of("path", "loopback"));
        Map<String, Object> now = Map.of("client", Map.of("jdk", "Temurin 25", "kernel", "Linux 6.18"),
                "server", Map.of("jdk", "Temurin 25", "kernel", "Linux 6.18", "tuning", Map.of("cgroupMemoryMax", "268435456")),
                "network", Map.of("path", "veth"));
        String out = compare(dir, new Report(Environments.of(old), A.results()), new Report(Environments.of(now), B.results()));
        assertThat(out).contains("environment differs, client jdk: Temurin 21 vs Temurin 25\n")
                .contains("environment differs, server jdk: Temurin 21 vs Temurin 25\n")
                .contains("environment differs, server tuning cgroupMemoryMax: max vs 268435456\n")
                .contains("environment differs, network path: loopback vs veth\n").doesNotContain("kernel:");
        assertThat(compare(dir, new Report(Environments.of(old), A.results()), new Report(Environments.of(old), B.results()))).doesNotContain("environment differs");
    }

    /** Proxy rows differ by scenario only: an unmatched one says which. */
    @Test
    void anUnmatchedProxyRowNamesItsScenario(@TempDir Path dir) throws Exception {
        MethodResult small = MethodResult.skipped(new MethodResult.Row(Direction.RELAY, "copy", MethodResult.Scenario.of("small"), 0, null),
                "x");
        MethodResult connect = MethodResult.skipped(new MethodResult.Row(Direction.RELAY, "copy", MethodResult.Scenario.of("connect"), 0,
                null), "x");
        String out = compare(dir, A, new Report(Environments.of(Map.of()), List.of(small, connect)));
        assertThat(out).contains("only in B: proxy copy 0 (small), proxy copy 0 (connect)");
    }
}
