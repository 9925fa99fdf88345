package io.xferbench.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

/** Re-renders a saved JSON report: {@code RenderReport FILE [table|csv|json]}. */
public final class RenderReport {
    private RenderReport() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: RenderReport REPORT.json [table|csv|json]");
            System.exit(2);
        }
        Report report = new ObjectMapper().readValue(Path.of(args[0]).toFile(), Report.class);
        System.out.print(ReportWriter.render(report, args.length == 2 ? args[1] : "table"));
    }
}
