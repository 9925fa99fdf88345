package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's --help renders as written: picocli formats descriptions with String.format, so a bare '%' (as in
 * "5 % of its CPU") printed a "[picocli WARN] Could not format" line per option and an unformatted text.
 */
class HelpTextTest {
    @Test
    void everyCommandsHelpRendersWithoutPicocliWarnings() {
        List<CommandLine> all = new ArrayList<>();
        collect(Cli.commandLine(new ClientMain()), all);
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            for (CommandLine cl : all) {
                assertThat(cl.getUsageMessage(CommandLine.Help.Ansi.OFF)).as(cl.getCommandName()).contains("Usage:");
            }
        } finally {
            System.setErr(stderr);
        }
        assertThat(all).hasSizeGreaterThan(5);
        assertThat(captured.toString(StandardCharsets.UTF_8)).as("stderr while rendering every --help").isEmpty();
    }

    private static void collect(CommandLine cl, List<CommandLine> into) {
        into.add(cl);
        cl.getSubcommands().values().forEach(sub -> collect(sub, into));
    }
}
