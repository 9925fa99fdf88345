package io.xferbench.client.command;

import io.xferbench.client.report.Report;
import io.xferbench.client.report.ReportMerge;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code merge A.json B.json ...}: the reports of cooperating clients (--client-id I/N) as one run. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Merge the JSON reports of cooperating clients (download or upload with --client-id I/N) into one: per row, "
                + "all clients' bytes over the union of their measured spans.")
public final class MergeCommand implements Callable<Integer> {
    /** Below this share of a row's span with every client measuring, the merged rate understates what they did together. */
    private static final double LOW_OVERLAP = 0.9;

    @Parameters(arity = "2..*", paramLabel = "CLIENT.json", description = "One report per client, written with --format json.")
    List<Path> files;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        output.check(files);
        List<ReportMerge.Input> inputs = new ArrayList<>();
        for (Path file : files) {
            inputs.add(new ReportMerge.Input(file.toString(), Report.read(file)));
        }
        Report merged = ReportMerge.merge(inputs);
        ReportMerge.Clients c = merged.clients();
        if (c != null && c.overlapMinimum() != null
                && c.overlapMinimum() < LOW_OVERLAP) {
            System.err.printf(java.util.Locale.ROOT, "xferbench: the clients measured at the same time for only %.0f%% of a row's span: "
                    + "start them together (--start-at) and merge one method and size per run%n", 100 * c.overlapMinimum());
        }
        return output.emit(merged);
    }
}
