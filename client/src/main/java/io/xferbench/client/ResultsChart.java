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

/** A PNG bar chart of a report: median MiB/s per method, one series per size, min..max as error bars. */
final class ResultsChart {
    private ResultsChart() {
    }

    static void write(Report report, Path png) throws IOException {
        Map<Long, List<MethodResult>> bySize = new LinkedHashMap<>();
        for (MethodResult r : report.results()) {
            if (r.skipped() == null && r.error() == null) {
                bySize.computeIfAbsent(r.size(), k -> new ArrayList<>()).add(r);
            }
        }
        if (bySize.isEmpty()) {
            throw new IOException("nothing to chart: every row was skipped or failed");
        }
        CategoryChart chart = new CategoryChartBuilder().width(1200).height(650)
                .title("xferbench " + report.results().get(0).direction() + " throughput (median, min..max over rounds)")
                .xAxisTitle("method").yAxisTitle("MiB/s").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setXAxisLabelRotation(30);
        chart.getStyler().setErrorBarsColor(java.awt.Color.DARK_GRAY);
        for (Map.Entry<Long, List<MethodResult>> e : bySize.entrySet()) {
            List<String> methods = e.getValue().stream().map(MethodResult::method).toList();
            List<Double> medians = e.getValue().stream().map(MethodResult::mibPerSec).toList();
            // XChart draws symmetric error bars; use the larger half-range so min..max is always covered.
            List<Double> spread = e.getValue().stream()
                    .map(r -> Math.max(r.mibPerSec() - r.mibPerSecMin(), r.mibPerSecMax() - r.mibPerSec())).toList();
            chart.addSeries(Sizes.format(e.getKey()), methods, medians, spread);
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
