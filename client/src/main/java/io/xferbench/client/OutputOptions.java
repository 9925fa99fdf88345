package io.xferbench.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import picocli.CommandLine.Option;

/** Where and how the report goes: table/json/csv to standard output or a file, and a chart. */
final class OutputOptions {
    /** Report formats. */
    enum Format { TABLE, JSON, CSV }

    @Option(names = "--format", defaultValue = "table", description = "table, json or csv (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--out", description = "Write the report here instead of standard output.")
    Path out;

    @Option(names = "--chart", paramLabel = "BASE", description = "Also draw charts as PNG and SVG: BASE.png/.svg (MiB/s; "
            + "req/s charts for empty-body rows are BASE-requests.*), BASE-cpu.* and BASE-syscalls.* (a .png ending of BASE is dropped).")
    Path chart;

    /** Writes the report; the exit code: 1 when any row failed. */
    int emit(Report report) throws IOException {
        String text = ReportWriter.render(report, format.name().toLowerCase(java.util.Locale.ROOT));
        if (out != null) {
            Files.writeString(out, text, StandardCharsets.UTF_8);
            System.err.println("xferbench: report written to " + out);
        } else {
            System.out.print(text);
        }
        if (chart != null) {
            for (Path file : ChartFiles.write(report, chart)) {
                System.err.println("xferbench: chart written to " + file);
            }
        }
        if (report.anyFailed()) {
            System.err.println("xferbench: FAILED rows: " + Arrays.toString(report.results().stream()
                    .filter(r -> r.error() != null).map(MethodResult::label).toArray()));
            return 1;
        }
        return 0;
    }
}
