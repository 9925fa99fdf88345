package io.xferbench.client.command;

import io.xferbench.client.report.Report;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code render FILE.json}: a saved run in other formats, and its charts, without running anything. */
@Command(name = "render", mixinStandardHelpOptions = true,
        description = "Render a saved JSON report (--format json) as a table, JSON, CSV, Markdown or HTML, and draw its charts.")
public final class RenderCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE.json", description = "A report written by download, upload or proxy with --format json.")
    Path file;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        output.check(java.util.List.of(file));
        output.write(Report.read(file));
        // Rendering succeeded; failed rows are shown, they are the run's result, not this command's.
        return 0;
    }
}
