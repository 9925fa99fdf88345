package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.cli.Cli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An output the gate could not write is a usage error before it runs anything: the old code started its 34 JMH runs
 * (minutes) with --junit-xml in a missing directory and failed only when it wrote the file.
 */
class PerfGateUsageTest {

    @ParameterizedTest
    @ValueSource(strings = {"--junit-xml", "--verdict-json", "--summary-markdown", "--results", "--jmh-log"})
    void anOutputInAMissingDirectoryIsOneLineAndExit2BeforeAnyWork(String option, @TempDir Path dir) {
        StringWriter err = new StringWriter();
        // --compare of files that do not exist: had the option passed, the gate would fail reading them instead.
        int status = Cli.commandLine(new PerfGate()).setErr(new PrintWriter(err, true)).execute("--compare",
                dir.resolve("a.json").toString(), dir.resolve("b.json").toString(), option,
                dir.resolve("nodir/out").toString());
        assertThat(status).as(err.toString()).isEqualTo(Cli.USAGE);
        assertThat(err.toString().strip().lines()).as(err.toString()).hasSize(1);
        assertThat(err.toString()).contains(option).contains("there is no directory " + dir.resolve("nodir"));
    }
}
