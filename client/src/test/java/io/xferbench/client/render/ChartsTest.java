package io.xferbench.client.render;

import io.xferbench.client.report.Environments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.client.UsageErrorsTest;
import io.xferbench.client.report.Report;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {

    private static MethodResult measured(String method, long size, double median, double min, double max) {
        return new MethodResult(MethodResult.Row.served(Direction.DOWNLOAD, method, size),
                new MethodResult.Throughput(3 * size, 3, 1.0, median, min, max, List.of(min, median, max), 3.0, 2.0, 4.0),
                new MethodResult.Latency(1, 2, 2), null, null, MethodResult.Syscalls.unavailable("perf not installed"),
                null, null, MethodResult.Sharing.UNKNOWN, null, MethodResult.Status.MEASURED);
    }

    /** a at 1 MiB and 64 MiB, b skipped at 1 MiB only, c run at 64 MiB only. */
    private static Report mixed() {
        return new Report(Environments.of(Map.of()), List.of(
                measured("a", Sizes.MiB, 500, 100, 900),
                MethodResult.skipped(MethodResult.Row.served(Direction.DOWNLOAD, "b", Sizes.MiB), "no io_uring here"),
                measured("a", 64 * Sizes.MiB, 1927, 1500, 3893),
                measured("c", 64 * Sizes.MiB, 1000, 990, 1010)));
    }

    private static BarChart throughput(Report report) {
        return ReportCharts.of(report).get(0).chart();
    }

    @Test
    void whiskersAreTheRowsOwnMinimumAndMaximumNotASymmetricHalfRange() {
        BarChart.Bar bar = (BarChart.Bar) throughput(mixed()).groups().get(0).cells().get(1);
        assertThat(bar.value()).isEqualTo(1927);
        assertThat(bar.min()).isEqualTo(1500);
        assertThat(bar.max()).isEqualTo(3893);
    }

    @Test
    void barsStayUnderTheirMethodWhenRowsAreSkippedOrNotRun() {
        BarChart chart = throughput(mixed());
        assertThat(chart.series()).containsExactly("1MiB", "64MiB");
        assertThat(chart.groups()).extracting(BarChart.Group::label).containsExactly("a", "b", "c");
        assertThat(chart.groups().get(1).cells().get(0)).isEqualTo(new BarChart.Unmeasured("skipped: no io_uring here", false));
        assertThat(chart.groups().get(1).cells().get(1)).isInstanceOf(BarChart.NotRun.class);
        assertThat(chart.groups().get(2).cells().get(0)).isInstanceOf(BarChart.NotRun.class);
        assertThat(((BarChart.Bar) chart.groups().get(2).cells().get(1)).value()).isEqualTo(1000);
    }

    @Test
    void theDrawnWhiskerSpansMinToMaxInPixels() {
        BarChart chart = throughput(mixed());
        BarChartPainter painter = new BarChartPainter(chart);
        BufferedImage image = ChartFiles.png(chart);
        int y = painter.barCentre(0, 1);
        int left = Integer.MAX_VALUE;
        int right = -1;
        // The whisker is the only near-black ink on the bar's centre line between the axis and the value text.
        for (int x = (int) painter.x(0) + 3; x < (int) painter.x(3893) + 4; x++) {
            int rgb = image.getRGB(x, y);
            if (((rgb >> 16) & 0xff) < 0x60 && ((rgb >> 8) & 0xff) < 0x60 && (rgb & 0xff) < 0x60) {
                left = Math.min(left, x);
                right = Math.max(right, x);
            }
        }
        assertThat((double) left).isCloseTo(painter.x(1500), org.assertj.core.data.Offset.offset(2.0));
        assertThat((double) right).isCloseTo(painter.x(3893), org.assertj.core.data.Offset.offset(2.0));
        assertThat(painter.axisMax()).isGreaterThanOrEqualTo(3893);
    }

    @Test
    void theSvgNamesMethodsInOrderAndMarksTheSkippedRow(@TempDir Path dir) throws Exception {
        List<Path> files = ChartFiles.write(mixed(), dir.resolve("run.png"));
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("run.png", "run.svg", "run-cpu.png", "run-cpu.svg", "run-syscalls.png", "run-syscalls.svg");
        String svg = Files.readString(dir.resolve("run.svg"));
        assertThat(svg).contains(">skipped: no io_uring here<").contains("1927 [1500..3893]");
        assertThat(svg.indexOf(">a<")).isLessThan(svg.indexOf(">b<"));
        assertThat(svg.indexOf(">b<")).isLessThan(svg.indexOf(">c<"));
        assertThat(Files.readString(dir.resolve("run-syscalls.svg"))).contains("n/a: perf not installed");
    }

    /** A header line longer than the chart was cut ("... · s..."), losing the server's settings and the command's end. */
    @Test
    void longHeaderLinesAreWrappedNotCut() throws Exception {
        String tuning = "tuning client governor unavailable, THP madvise, cgroup memory max, TCP bbr rmem 4096 131072 33554432 "
                + "wmem 4096 16384 4194304 rmem_max 4194304 wmem_max 4194304 · server the same but cgroup memory 268435456, "
                + "I/O scheduler mq-deadline-at-the-end";
        BarChart chart = new BarChart("t", List.of("short line", tuning), "MiB/s", List.of("1MiB"),
                List.of(new BarChart.Group("a", List.of(new BarChart.Bar(1, 1.0, 1.0, "1")))));
        String svg = ChartFiles.svg(chart);
        assertThat(svg).contains("mq-deadline-at-the-end").contains("short line").doesNotContain("...");
    }

    @Test
    void wrappedLinesFitAndKeepEveryWord() {
        String tuning = "tuning client governor unavailable, THP madvise, cgroup memory max, TCP bbr rmem 4096 131072 33554432 "
                + "wmem 4096 16384 4194304 rmem_max 4194304 wmem_max 4194304 · server the same but I/O scheduler mq-deadline";
        java.awt.FontMetrics metrics = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics()
                .getFontMetrics(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 12));
        List<String> lines = BarChartPainter.wrap(List.of(tuning), metrics, 600);
        assertThat(lines).hasSizeGreaterThan(1).allMatch(l -> metrics.stringWidth(l) <= 600);
        assertThat(String.join(" ", lines.stream().map(String::strip).toList())).isEqualTo(tuning);
    }

    @Test
    void emptyBodyRowsAreChartedPerRequestBySeriesOfScenario() {
        MethodResult small = new MethodResult(new MethodResult.Row(Direction.RELAY, "copy", MethodResult.Scenario.SMALL, 0, null),
                new MethodResult.Throughput(0, 100, 1, 0, 0, 0, List.of(), 9000.0, 8000.0, 9500.0), new MethodResult.Latency(0.1, 0.2, 0.3),
                null, null, MethodResult.Syscalls.NONE, null, null, MethodResult.Sharing.UNKNOWN, null, MethodResult.Status.MEASURED);
        List<ReportCharts.Named> charts = ReportCharts.of(new Report(Environments.of(Map.of()), List.of(small)));
        assertThat(charts).extracting(ReportCharts.Named::suffix).containsExactly("-requests", "-requests-cpu", "-requests-syscalls");
        BarChart requests = charts.get(0).chart();
        assertThat(requests.series()).containsExactly("small");
        assertThat(requests.groups().get(0).cells().get(0)).isEqualTo(new BarChart.Bar(9000, 8000.0, 9500.0, "9000 [8000..9500]"));
    }

    /** A proxy run's CPU chart was titled "xferbench proxy proxy CPU ...". */
    @Test
    void aProxyRunsTitlesNameTheProxyOnce() {
        MethodResult small = new MethodResult(new MethodResult.Row(Direction.RELAY, "copy", MethodResult.Scenario.SMALL, 0, null),
                new MethodResult.Throughput(0, 100, 1, 0, 0, 0, List.of(), 9000.0, 8000.0, 9500.0), new MethodResult.Latency(0.1, 0.2, 0.3),
                null, null, MethodResult.Syscalls.NONE, null, null, MethodResult.Sharing.UNKNOWN, null, MethodResult.Status.MEASURED);
        List<ReportCharts.Named> charts = ReportCharts.of(new Report(Environments.of(Map.of()), List.of(small)));
        assertThat(charts.get(1).chart().title()).isEqualTo("xferbench proxy process CPU microseconds per request (usr+sys)");
        assertThat(charts.get(2).chart().title()).isEqualTo("xferbench proxy process syscalls per request");
        assertThat(ReportCharts.of(mixed()).get(1).chart().title()).startsWith("xferbench download server CPU seconds per GiB");
    }

    @Test
    void aWhiskerThatDoesNotHoldItsValueIsRefused() {
        assertThatThrownBy(() -> new BarChart.Bar(5, 6.0, 7.0, "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void gridStepsAreRound() {
        assertThat(BarChartPainter.tickStep(3893)).isEqualTo(1000);
        assertThat(BarChartPainter.tickStep(0.9)).isEqualTo(0.2);
        assertThat(BarChartPainter.tickStep(60)).isEqualTo(20);
    }

    /** A chart file that cannot be made (here under /proc, even for root) is one line naming it, not ImageIO's stack trace. */
    @Test
    void anUnwritableChartIsOneLineWithoutAStackTrace(@TempDir Path dir) throws Exception {
        Path run = Files.writeString(dir.resolve("run.json"), ReportWriter.render(mixed(), ReportFormat.JSON));
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stderr = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        UsageErrorsTest.Run r;
        try {
            r = UsageErrorsTest.run("render", run.toString(), "--format", "json", "--out", dir.resolve("out.json").toString(),
                    "--chart", "/proc/xferbench-chart");
        } finally {
            System.setErr(stderr);
        }
        String printed = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(r.exit()).as(r.err()).isEqualTo(io.xferbench.core.cli.Cli.FAILED);
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains("/proc/xferbench-chart.png");
        assertThat(printed).doesNotContain("\tat ").doesNotContain("Exception");
    }
}
