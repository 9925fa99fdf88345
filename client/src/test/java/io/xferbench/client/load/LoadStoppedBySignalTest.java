package io.xferbench.client.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.fileops.CreatedFiles;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code client load} stopped by SIGTERM or Ctrl-C (SIGINT) in the middle of its uploads: it deletes every file it
 * created before it exits, with the signal's status (128 + its number).
 */
@Timeout(120)
class LoadStoppedBySignalTest {
    @TempDir
    Path dataDir;

    /** coreutils' env, which resets a signal to its default with --default-signal since 8.31. */
    private static final String ENV_DEFAULT_SIGINT = "env";

    @ParameterizedTest
    @CsvSource({"TERM, 143, upload", "TERM, 143, mix", "INT, 130, upload"})
    void aStoppedRunDeletesItsFilesAndExitsWithTheSignalsStatus(String signal, int status, String op) throws Exception {
        MethodAssumptions.assumeAvailable("env --default-signal", envResetsSignals(),
                "this env cannot reset SIGINT for the client (coreutils 8.31+ can)");
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            // env resets SIGINT to its default: a JVM started with it ignored (a background job, a CI runner) would
            // otherwise hand that on to the client, which then would not stop on the SIGINT this test sends.
            Process load = new ProcessBuilder(ENV_DEFAULT_SIGINT, "--default-signal=INT", java, "-cp", System.getProperty("java.class.path"), "io.xferbench.client.ClientMain",
                    "load", "--port", Integer.toString(server.port()), "--warmup", "0s", "--duration", "60s", "--concurrency", "4",
                    "--threads", "1", "--op", op, "--file-size", "64KiB")
                    .redirectErrorStream(true).start();
            StringBuilder output = new StringBuilder();
            Thread reader = Thread.ofPlatform().daemon().start(() -> drain(load.getInputStream(), output));
            try {
                String own = CreatedFiles.PREFIX + load.pid() + "-";
                // Uploads replace their file by rename, so all 4 stay once made; the mix deletes them in turn.
                int wanted = op.equals("upload") ? 4 : 1;
                int seen = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (seen < wanted && load.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                    seen = filesNamed(own).size();
                }
                assertThat(seen).as("the run's files, mid-run; its output: %s", output).isGreaterThanOrEqualTo(wanted);

                Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(load.pid())).inheritIO().start();
                assertThat(kill.waitFor()).isZero();

                assertThat(load.waitFor(30, TimeUnit.SECONDS)).as("the client exits").isTrue();
                reader.join(5_000);
                assertThat(load.exitValue()).as("exit status; output: %s", output).isEqualTo(status);
                assertThat(filesNamed(CreatedFiles.PREFIX)).as("load files left; output: %s", output).isEmpty();
            } finally {
                load.destroyForcibly();
            }
        }
    }

    private List<String> filesNamed(String prefix) throws IOException {
        try (Stream<Path> s = Files.list(dataDir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).toList();
        }
    }

    private static void drain(InputStream in, StringBuilder into) {
        byte[] chunk = new byte[4096];
        try (in) {
            for (int n; (n = in.read(chunk)) > 0; ) {
                synchronized (into) {
                    into.append(new String(chunk, 0, n, StandardCharsets.UTF_8));
                }
            }
        } catch (IOException ignored) {
            // The child is gone: what it said so far is all there is.
        }
    }

    private static boolean envResetsSignals() throws InterruptedException {
        try {
            return new ProcessBuilder(ENV_DEFAULT_SIGINT, "--default-signal=INT", "true").start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
