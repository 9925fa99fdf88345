package io.xferbench.client.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.ClientMain;
import io.xferbench.core.cli.Cli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code client load} against a server that accepts and never answers ends within a bound: over HTTP its requests are
 * counted as TIMEOUT and the row says there was no answer instead of showing zeros; the exchanges around the rows (the
 * native first exchange, the HTTP probe) fail the command in one line naming the server and what was awaited.
 */
class LoadNoAnswerCommandTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    record Run(int exit, String err) {
    }

    private static Run load(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(new ClientMain());
        cl.setErr(new PrintWriter(err, true));
        String[] all = new String[args.length + 1];
        all[0] = "load";
        System.arraycopy(args, 0, all, 1, args.length);
        int exit = assertTimeoutPreemptively(BOUND, () -> cl.execute(all));
        return new Run(exit, err.toString());
    }

    @Test
    void httpRequestsToASilentServerAreCountedAsTimeoutsAndTheRowSaysNoAnswer() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            Path json = dir.resolve("run.json");
            Run r = load("--port", Integer.toString(silent.port()), "--protocol", "http", "--requests", "4", "--concurrency", "2",
                    "--warmup", "0s", "--answer-timeout", "500ms", "--format", "json", "--out", json.toString());
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            JsonNode row = new ObjectMapper().readTree(json.toFile()).get("rows").get(0);
            assertThat(row.get("requests").asLong()).isZero();
            assertThat(row.get("errorsByCause").get("TIMEOUT").asLong()).isEqualTo(4);
            assertThat(row.get("errorsByCause").size()).isEqualTo(1);
            assertThat(row.get("noAnswer").asText()).isEqualTo("every request timed out: not a result");
            assertThat(row.get("verified").asBoolean()).isFalse();

            Path table = dir.resolve("run.txt");
            assertThat(load("--port", Integer.toString(silent.port()), "--protocol", "http", "--requests", "2", "--concurrency", "1",
                    "--warmup", "0s", "--answer-timeout", "300ms", "--out", table.toString()).exit()).isEqualTo(1);
            assertThat(Files.readString(table)).contains("no answer: every request timed out (2 TIMEOUT): not a result, not verified");
        }
    }

    @Test
    void aNativeLoadOfASilentServerFailsInOneLineBeforeItsRows() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            for (String op : new String[] {"download", "upload"}) {
                long start = System.nanoTime();
                Run r = load("--port", Integer.toString(silent.port()), "--op", op, "--requests", "4", "--answer-timeout", "500ms");
                double seconds = (System.nanoTime() - start) / 1e9;
                assertThat(r.exit()).as(r.err()).isEqualTo(1);
                assertThat(r.err().strip()).isEqualTo("load: no answer from 127.0.0.1:" + silent.port() + " within 500ms (waiting for "
                        + (op.equals("download") ? "the generated file's download" : "INFO") + " before the rows)");
                assertThat(seconds).isLessThan(10);
            }
        }
    }

    @Test
    void anHttpUploadToASilentServerFailsInOneLineAtItsProbe() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            Run r = load("--port", Integer.toString(silent.port()), "--protocol", "http", "--op", "upload", "--requests", "4",
                    "--answer-timeout", "500ms");
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            assertThat(r.err().strip()).isEqualTo("load: no answer from 127.0.0.1:" + silent.port()
                    + " within 500ms (waiting for the probe PUT before the row)");
        }
    }
}
