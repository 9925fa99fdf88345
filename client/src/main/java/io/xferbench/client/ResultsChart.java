package io.xferbench.client;

import io.xferbench.core.Sizes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * A PNG bar chart of a report: median MiB/s per method, one series per size, min..max as error bars. Empty-body
 * exchange rows (size 0) are left out, unless they are all there is: then it charts requests/s.
 */
final class ResultsChart {
    private ResultsChart() {
    }

    static void write(Report report, Path png) throws IOException {
        Map<Long, List<MethodResult>> bySize = new LinkedHashMap<>();
        for (MethodResult r : report.results()) {
            if (r.skipped() == null && r.error() == null) {
                bySize.computeIfAbsent(r.row().size(), k -> new ArrayList<>()).add(r);
            }
        }
        if (bySize.isEmpty()) {
            throw new IOException("nothing to chart: every row was skipped or failed");
        }
        // Rows that move bytes are charted in MiB/s; a report of empty-body exchanges only, in requests/s.
        boolean requests = bySize.keySet().stream().allMatch(size -> size == 0);
        bySize.remove(0L);
        CategoryChart chart = new CategoryChartBuilder().width(1200).height(650)
                .title("xferbench " + DirectionJson.name(report.results().get(0).row().direction()) + (requests ? " requests" : " throughput")
                        + " (median, min..max over rounds)")
                .xAxisTitle("method").yAxisTitle(requests ? "requests/s" : "MiB/s").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setXAxisLabelRotation(30);
        chart.getStyler().setErrorBarsColor(java.awt.Color.DARK_GRAY);
        if (requests) {
            List<MethodResult> rows = report.results().stream().filter(r -> r.skipped() == null && r.error() == null).toList();
            chart.addSeries("empty body", rows.stream().map(MethodResult::label).toList(),
                    rows.stream().map(r -> r.throughput().transfersPerSec()).toList(),
                    rows.stream().map(r -> spread(r.throughput().transfersPerSec(), r.throughput().transfersPerSecMin(),
                            r.throughput().transfersPerSecMax())).toList());
        }
        for (Map.Entry<Long, List<MethodResult>> e : bySize.entrySet()) {
            List<String> methods = e.getValue().stream().map(MethodResult::label).toList();
            List<Double> medians = e.getValue().stream().map(r -> r.throughput().mibPerSec()).toList();
            List<Double> spread = e.getValue().stream()
                    .map(r -> spread(r.throughput().mibPerSec(), r.throughput().mibPerSecMin(), r.throughput().mibPerSecMax())).toList();
            chart.addSeries(Sizes.format(e.getKey()), methods, medians, spread);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** XChart draws symmetric error bars: the larger half-range, so min..max is always covered. */
    private static double spread(double median, double min, double max) {
        return Math.max(median - min, max - median);
    }
}
