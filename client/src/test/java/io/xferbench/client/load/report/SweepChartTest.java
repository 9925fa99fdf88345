package io.xferbench.client.load.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.target.ServerPlacement;
import io.xferbench.client.load.target.ServerSampler;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sweep chart's data: this client's download rows only, a line per design, no point where no row was measured. */
class SweepChartTest {
    private static LoadResult result(double perSecond) {
        return new LoadResult(1, 1, 0, 100, Map.of(), 0, 1, perSecond, 1, new LoadResult.LatencySummary(1, 2, 3, 4, 5), 1, 0.1,
                Map.of());
    }

    private static LoadReport.Row row(String server, String client, String op, int conns, double perSecond, int threads) {
        return new LoadReport.Row(server, "m", client, "http", op, 1024, conns, result(perSecond),
                new ServerSampler.ServerFigures(1000, threads, 0), null, null, null, null);
    }

    @Test
    void linesHoldTheMeasuredDownloadsOfThisClientOnly() {
        List<LoadReport.Row> rows = List.of(
                row("nginx", "xferbench", "download", 50, 40_000, 3),
                row("nginx", "xferbench", "download", 500, 38_000, 3),
                row("nginx", "wrk", "download", 500, 30_000, 3),
                row("nginx", "xferbench", "upload", 500, 3_000, 3),
                row("xferbench", "xferbench", "download", 500, 20_000, 523),
                LoadReport.Row.skipped("xferbench", "m", "xferbench", "http", 1024, 50, "not here"));

        SweepChart chart = SweepChart.of(rows, 1024, TestEnvironments.machine("JDK", "Linux", 2, null), ServerPlacement.LOOPBACK.described());

        assertThat(chart.concurrencies()).containsExactly(50, 500);
        assertThat(chart.lines()).extracting(SweepChart.Line::label).containsExactly("nginx m (http)", "xferbench m (http)");
        assertThat(chart.lines().get(0).requestsPerSec()).containsExactly(Map.entry(50, 40_000.0), Map.entry(500, 38_000.0));
        assertThat(chart.lines().get(1).requestsPerSec()).containsOnlyKeys(500); // skipped at 50: no point, no zero
        assertThat(chart.lines().get(1).threadsPeak()).containsExactly(Map.entry(500, 523));
        BufferedImage image = SweepChartFile.image(chart);
        assertThat(image.getWidth()).isEqualTo(SweepChartFile.WIDTH);
    }

    @Test
    void linesPastThePalettesColoursAreDashedThenDotted() {
        assertThat(SweepChartFile.stroke(0, 2f).getDashArray()).isNull();
        assertThat(SweepChartFile.stroke(SweepChartFile.COLOURS - 1, 2f).getDashArray()).isNull();
        float[] dashed = SweepChartFile.stroke(SweepChartFile.COLOURS, 2f).getDashArray();
        float[] dotted = SweepChartFile.stroke(2 * SweepChartFile.COLOURS, 2f).getDashArray();
        assertThat(dashed).isNotNull();
        assertThat(dotted).isNotNull().isNotEqualTo(dashed);
    }

    @Test
    void designsSharingAColourHaveDifferentMarkers() {
        Class<?> circle = SweepChartFile.marker(0, 10, 10).getClass();
        Class<?> square = SweepChartFile.marker(SweepChartFile.COLOURS, 10, 10).getClass();
        Class<?> triangle = SweepChartFile.marker(2 * SweepChartFile.COLOURS, 10, 10).getClass();
        assertThat(List.of(circle, square, triangle)).doesNotHaveDuplicates();
        assertThat(SweepChartFile.marker(SweepChartFile.COLOURS - 1, 10, 10).getClass()).isEqualTo(circle);
    }

    @Test
    void repeatedRowsSayTheirPointsAreMedians() {
        LoadReport.Row once = row("nginx", "xferbench", "download", 500, 38_000, 3);
        Repeats three = new Repeats(List.of(36_000.0, 38_000.0, 40_000.0), Map.of(), null, true, null, null, null);
        LoadReport.Row repeated = new LoadReport.Row(once.server(), once.model(), once.client(), once.protocol(),
                once.operation(), once.fileSize(), once.concurrency(), once.result(), once.serverFigures(), null, null, null,
                null).withRepeats(three);

        assertThat(SweepChart.of(List.of(once), 1024, TestEnvironments.NONE, "loopback").subtitle()).noneMatch(l -> l.contains("median"));
        assertThat(SweepChart.of(List.of(repeated), 1024, TestEnvironments.NONE, "loopback").subtitle())
                .anyMatch(l -> l.contains("median of 3 windows"));
    }

    /** A chart of single windows looked as settled as one of medians: it now says each point is one window, of how long. */
    @Test
    void singleWindowsSaySoAndHowLong() {
        LoadReport.Row once = row("nginx", "xferbench", "download", 500, 38_000, 3);
        assertThat(SweepChart.of(List.of(once), 1024, TestEnvironments.NONE, "loopback").subtitle())
                .contains("each point: one measured window of 1.0 s per row after its warm-up, no range (--repeat N measures N windows a row)");
    }

    @Test
    void theSubtitleSaysWhereTheLoadWentAndOnWhichCpus() {
        List<LoadReport.Row> rows = List.of(row("xferbench", "xferbench", "download", 50, 20_000, 30));
        ServerPlacement veth = new ServerPlacement(List.of("nsenter", "--net=/run/netns/S", "taskset", "-c", "0"), "198.18.0.1");

        List<String> overVeth = SweepChart.of(rows, 1024, TestEnvironments.machine(null, null, 1, "1"), veth.described()).subtitle();
        List<String> overLoopback = SweepChart.of(rows, 1024, TestEnvironments.machine(null, null, 2, null), ServerPlacement.LOOPBACK.described()).subtitle();

        assertThat(overVeth).anyMatch(l -> l.contains("servers at 198.18.0.1 started with 'nsenter --net=/run/netns/S taskset -c 0'"))
                .noneMatch(l -> l.contains("loopback")).anyMatch(l -> l.endsWith("generator on 1 CPUs (CPU list 1)"));
        assertThat(overLoopback).anyMatch(l -> l.contains("loopback, client and server sharing the machine's CPUs"))
                .anyMatch(l -> l.endsWith("generator on 2 CPUs"));
    }

    /**
     * Two designs with equal figures (the threads panel: both at 37 threads) used to be one line: the later one drawn
     * exactly over the earlier, which showed only in the legend. Now the earlier's markers and segments are drawn
     * bigger where a later line covers them, so its colour shows in the panels.
     */
    @Test
    void aLineCoveredByAnotherWithEqualFiguresStillShows() {
        List<LoadReport.Row> rows = List.of(
                row("xferbench", "xferbench", "download", 50, 20_000, 37),
                row("xferbench", "xferbench", "download", 500, 21_000, 37),
                row("nginx", "xferbench", "download", 50, 20_000, 37),
                row("nginx", "xferbench", "download", 500, 21_000, 37));
        SweepChart chart = SweepChart.of(rows, 1024, TestEnvironments.machine("JDK", "Linux", 2, null), ServerPlacement.LOOPBACK.described());
        BufferedImage image = SweepChartFile.image(chart);
        int first = 0x4e79a7; // the palette's first colour: the line drawn first, under the other
        int panelsEnd = image.getHeight() - 60; // above the legend, which shows every colour anyway
        int shown = 0;
        for (int y = 0; y < panelsEnd; y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == first) {
                    shown++;
                }
            }
        }
        assertThat(shown).as("pixels of the covered line's colour in the panels").isGreaterThan(100);
        assertThat(SweepChartFile.coveredBy(new Integer[][] {{10, 50}, {11, 80}, {10, null}}, 0, 0)).isEqualTo(2);
        assertThat(SweepChartFile.coveredBy(new Integer[][] {{10, 50}, {11, 80}, {10, null}}, 0, 1)).isZero();
    }
}
