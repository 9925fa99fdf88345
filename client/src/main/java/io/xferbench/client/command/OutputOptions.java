package io.xferbench.client.command;

import io.xferbench.client.render.ChartFiles;
import io.xferbench.client.render.ReportFormat;
import io.xferbench.client.render.ReportWriter;
import io.xferbench.client.report.Report;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** Where and how the report goes: one or more formats to standard output or files, and charts. */
final class OutputOptions {
    @Option(names = "--format", defaultValue = "table", split = ",", paramLabel = "FORMAT",
            description = "table, json, csv, markdown or html (a self-contained page with the charts); several, comma-separated, "
                    + "need --out (default: ${DEFAULT-VALUE}).")
    List<ReportFormat> formats;

    @Option(names = "--out", paramLabel = "FILE", converter = Converters.OutputFile.class, description = "Write the report here instead of standard output; with several formats, its extension "
            + "is replaced by each format's (.txt, .json, .csv, .md, .html).")
    Path out;

    @Option(names = "--chart", paramLabel = "BASE", converter = Converters.ChartBase.class, description = "Also draw charts as PNG and SVG: BASE.png/.svg (MiB/s; "
            + "req/s charts for empty-body rows are BASE-requests.*), BASE-cpu.* and BASE-syscalls.* (a .png ending of BASE is dropped).")
    Path chart;

    /** Refuses what cannot be written, before a run starts (exit 2); the paths themselves are checked by their converters. */
    void check() {
        check(List.of());
    }

    /** As {@link #check()}, and refuses to write over one of {@code inputs} (render, merge). */
    void check(List<Path> inputs) {
        if (formats.isEmpty()) {
            throw new IllegalArgumentException("--format needs at least one of table, json, csv, markdown, html");
        }
        if (formats.size() > 1 && out == null) {
            throw new IllegalArgumentException("--format " + formats.stream().map(ReportFormat::id).collect(Collectors.joining(","))
                    + " writes several files: give --out");
        }
        if (out != null) {
            for (ReportFormat format : formats) {
                refuseInput(formats.size() == 1 ? out : withExtension(out, format.extension), inputs);
            }
        }
    }

    /** Refuses an output file that is one of the inputs: it would be overwritten before (or while) it is read. */
    static void refuseInput(Path file, List<Path> inputs) {
        for (Path input : inputs) {
            try {
                if (Files.exists(file) && Files.exists(input) && Files.isSameFile(file, input)) {
                    throw new IllegalArgumentException("--out " + file + " is the input " + input + ": it would be overwritten");
                }
            } catch (IOException e) {
                // Cannot tell (no permission to look): reading or writing will say what is wrong.
            }
        }
    }

    /** Writes the report; the exit code: 1 when any row failed. */
    int emit(Report report) throws IOException {
        write(report);
        if (report.anyFailed()) {
            System.err.println("xferbench: FAILED rows: " + Arrays.toString(report.results().stream()
                    .filter(r -> r.status() instanceof MethodResult.Status.Failed).map(MethodResult::label).toArray()));
            return Cli.FAILED;
        }
        return 0;
    }

    /** Writes every asked format and the charts. */
    void write(Report report) throws IOException {
        check();
        for (ReportFormat format : formats) {
            String text = ReportWriter.render(report, format);
            Path file = formats.size() == 1 ? out : withExtension(out, format.extension);
            if (file != null) {
                Files.writeString(file, text, StandardCharsets.UTF_8);
                System.err.println("xferbench: report written to " + file);
            } else {
                System.out.print(text);
            }
        }
        if (chart != null) {
            for (Path file : ChartFiles.write(report, chart)) {
                System.err.println("xferbench: chart written to " + file);
            }
        }
    }

    static Path withExtension(Path file, String extension) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return file.resolveSibling((dot > 0 ? name.substring(0, dot) : name) + "." + extension);
    }
}
