package io.xferbench.client.command;

import io.xferbench.client.compare.ComparisonWriter;
import io.xferbench.client.compare.RunComparison;
import io.xferbench.client.report.Report;
import io.xferbench.core.cli.Converters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code compare A.json B.json}: two saved runs row by row. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Compare two saved JSON reports row by row: change of the median, whether the min..max ranges overlap, "
                + "rows found in one run only.")
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

    @Override
    public Integer call() throws Exception {
        if (out != null) {
            OutputOptions.refuseInput(out, List.of(a, b));
        }
        RunComparison comparison = RunComparison.of(Report.read(a), Report.read(b));
        String text = format == Format.MARKDOWN ? ComparisonWriter.markdown(comparison, a.toString(), b.toString())
                : ComparisonWriter.table(comparison, a.toString(), b.toString());
        if (out == null) {
            System.out.print(text);
        } else {
            Files.writeString(out, text, StandardCharsets.UTF_8);
            System.err.println("xferbench: comparison written to " + out);
        }
        return 0;
    }
}
