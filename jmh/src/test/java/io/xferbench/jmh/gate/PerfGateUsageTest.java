package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
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

    /** It said "could not run: java.nio.file.NoSuchFileException: …": the exception's class, for a file not there. */
    @Test
    void comparingAFileThatIsNotThereSaysWhichInOneLine(@TempDir Path dir) {
        Path a = dir.resolve("a.json");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        int status;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            status = PerfGate.run("--compare", a.toString(), dir.resolve("b.json").toString());
        } finally {
            System.setErr(old);
        }
        assertThat(status).isEqualTo(GateReport.EXIT_COULD_NOT_RUN);
        assertThat(err.toString(StandardCharsets.UTF_8).strip()).isEqualTo("perf-gate: could not run: no such file: " + a);
    }
}
