package io.xferbench.client.load.report;

import io.xferbench.core.cli.Converters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where a load report goes, and as what: the options {@code load} and {@code load-bench} share. */
public final class LoadOutputOptions {
    @Option(names = "--format", defaultValue = "table",
            description = "table, json or csv (default: ${DEFAULT-VALUE}).")
    LoadReportFormat format;

    @Option(names = "--out", converter = Converters.OutputFile.class, description = "Write the report here instead of standard output.")
    Path out;

    public LoadReportFormat format() {
        return format;
    }

    /** Writes {@code report} to --out, saying so on stderr, or else to standard output. */
    public void write(String report) throws IOException {
        if (out != null) {
            Files.writeString(out, report, StandardCharsets.UTF_8);
            System.err.println("xferbench: report written to " + out);
        } else {
            System.out.print(report);
        }
    }
}
