package io.xferbench.client.load.bench;

import io.xferbench.client.load.report.LoadOutputOptions;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadReportFormat;
import io.xferbench.client.load.report.LoadSettings;
import io.xferbench.client.load.report.SeedTable;
import io.xferbench.client.load.report.SweepChart;
import io.xferbench.client.load.report.SweepChartFile;
import io.xferbench.client.load.target.LoadEnvironment;
import io.xferbench.client.load.target.ServerPlacement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

/** Where a load bench's rows go: the report (--format, to --out or stdout: {@link LoadOutputOptions}), its JSON copy (--json) and the sweep chart. */
final class BenchOutput {
    private BenchOutput() {
    }

    static void write(LoadBenchCommand bench, LoadEnvironment environment, LoadSettings settings,
                      List<LoadReport.Row> rows, ServerPlacement placement) throws IOException {
        if (bench.json != null) {
            Files.writeString(bench.json, LoadReport.render(environment, settings, rows, LoadReportFormat.JSON), StandardCharsets.UTF_8);
        }
        String text = LoadReport.render(environment, settings, rows, bench.output.format());
        if (bench.output.format() == LoadReportFormat.TABLE) {
            text += "\n" + SeedTable.render(rows, bench.seedConcurrency);
        }
        bench.output.write(text);
        // After the table: a chart that cannot be drawn must not cost the run its report.
        SweepChart sweep = SweepChart.of(rows, bench.fileSize, environment, placement.described());
        if (bench.chart != null && sweep.lines().isEmpty()) {
            System.err.println("xferbench: no sweep chart: the chart shows downloads and no download row was measured");
        } else if (bench.chart != null) {
            SweepChartFile.write(sweep, bench.chart);
            System.err.println("xferbench: sweep chart written to " + bench.chart);
        }
    }
}
