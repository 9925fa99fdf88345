package io.xferbench.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

/** Re-renders a saved JSON report: {@code RenderReport FILE [table|csv|json|CHART.png]}. */
public final class RenderReport {
    private RenderReport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: RenderReport REPORT.json [table|csv|json|FILE.png]");
            System.exit(2);
        }
        Report report = new ObjectMapper().readValue(Path.of(args[0]).toFile(), Report.class);
        String format = args.length == 2 ? args[1] : "table";
        if (format.endsWith(".png")) {
            ChartFiles.write(report, Path.of(format));
            return;
        }
        System.out.print(ReportWriter.render(report, format));
    }
}
