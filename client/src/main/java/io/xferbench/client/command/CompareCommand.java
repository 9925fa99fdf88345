package io.xferbench.client.command;

import io.xferbench.client.compare.ComparisonWriter;
import io.xferbench.client.compare.LoadComparison;
import io.xferbench.client.compare.LoadComparisonWriter;
import io.xferbench.client.compare.LoadRun;
import io.xferbench.client.compare.RunComparison;
import io.xferbench.client.report.Report;
import io.xferbench.core.cli.Converters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code compare A.json B.json}: two saved runs row by row, two download/upload/proxy reports or two load reports. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Compare two saved JSON reports row by row: change of the median, whether the min..max ranges overlap, "
                + "rows found in one run only. Both download/upload/proxy reports, or both load reports (client load, load-bench).")
public final class CompareCommand implements Callable<Integer> {
    /** How the comparison is printed. */
    enum Format { TABLE, MARKDOWN }

    @Parameters(index = "0", paramLabel = "A.json", description = "The baseline run.")
    Path a;

    @Parameters(index = "1", paramLabel = "B.json", description = "The run compared with it.")
    Path b;

    @Option(names = "--format", defaultValue = "table", description = "table or markdown (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--out", converter = Converters.OutputFile.class, description = "Write the comparison here instead of standard output.")
    Path out;

    @Option(names = "--relative-to", paramLabel = "ROW", description = "Load reports: divide every row's requests/s by this row's "
            + "in the same round of the same run (cancels a machine's drift between the runs): its name as compare prints it, or "
            + "words of it; nginx = nginx's sendfile row.")
    String relativeTo;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (out != null) {
            OutputOptions.refuseInput(out, List.of(a, b));
        }
        for (Path file : List.of(a, b)) {
            if (!Files.exists(file)) {
                throw new NoSuchFileException(file.toString());
            }
        }
        boolean loadA = LoadRun.is(a);
        if (loadA != LoadRun.is(b)) {
            // Their rows measure different things (requests/s of a server design, MiB/s of a method): nothing to pair.
            throw new IOException((loadA ? a : b) + " is a load report and " + (loadA ? b : a) + " is not: compare reads two "
                    + "load reports, or two download, upload and proxy reports");
        }
        String text = loadA ? load() : run();
        if (out == null) {
            System.out.print(text);
        } else {
            Files.writeString(out, text, StandardCharsets.UTF_8);
            System.err.println("xferbench: comparison written to " + out);
        }
        return 0;
    }

    private String run() throws IOException {
        if (relativeTo != null) {
            throw new ParameterException(spec.commandLine(), "--relative-to compares load reports only");
        }
        RunComparison comparison = RunComparison.of(Report.read(a), Report.read(b));
        return format == Format.MARKDOWN ? ComparisonWriter.markdown(comparison, a.toString(), b.toString())
                : ComparisonWriter.table(comparison, a.toString(), b.toString());
    }

    private String load() throws IOException {
        LoadComparison comparison;
        LoadRun first = LoadRun.read(a);
        LoadRun second = LoadRun.read(b);
        try {
            comparison = LoadComparison.of(first, second, relativeTo);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return format == Format.MARKDOWN ? LoadComparisonWriter.markdown(comparison, a.toString(), b.toString())
                : LoadComparisonWriter.table(comparison, a.toString(), b.toString());
    }
}
