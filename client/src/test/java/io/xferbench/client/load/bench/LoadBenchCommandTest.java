package io.xferbench.client.load.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.ServerJar;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The load table end to end at a tiny scale: every server design runs, is measured, and is stopped. */
@Timeout(300)
class LoadBenchCommandTest {
    private static final Path SERVER_JAR = ServerJar.PATH;

    @Test
    void everyDesignGivesAVerifiedMeasuredRowAndNothingOutlivesTheRun(@TempDir Path tmp) throws Exception {
        ServerJar.assumeBuilt("load-bench");
        Path out = tmp.resolve("load.json");
        int exit = io.xferbench.core.cli.Cli.commandLine(new LoadBenchCommand()).execute("--server-jar", SERVER_JAR.toString(),
                "--concurrency", "4", "--duration", "1s", "--warmup", "200ms", "--jit-settle", "0s", "--file-size", "8KiB",
                "--io-uring-ring-size", "32", "--cork-responses", "--format", "json", "--out", out.toString());
        JsonNode doc = new ObjectMapper().readTree(out.toFile());
        assertThat(doc.path("schema").asText()).isEqualTo(LoadReport.SCHEMA);
        assertThat(doc.path("settings").path("ioUringRingSize").asInt()).isEqualTo(32); // and every server took it
        assertThat(doc.path("settings").path("corkResponses").isBoolean()).isTrue();
        assertThat(doc.path("settings").path("corkResponses").asBoolean()).isTrue();
        assertThat(doc.path("environment").path("jdk").asText()).isNotEmpty();
        List<String> designs = new ArrayList<>();
        for (JsonNode row : doc.path("rows")) {
            if (row.has("skipped")) {
                MethodAssumptions.assumeAvailable(row.path("server").asText() + " " + row.path("model").asText(),
                        Availability.unavailable(row.path("skipped").asText()));
            }
            designs.add(row.path("server").asText() + " " + row.path("model").asText() + " " + row.path("client").asText()
                    + " " + row.path("protocol").asText());
            assertThat(row.path("requests").asLong()).as(row.toString()).isPositive();
            assertThat(row.path("errors").asLong()).as(row.toString()).isZero();
            assertThat(row.path("serverCpuMicrosPerRequest").isNumber()).as(row.toString()).isTrue();
            assertThat(row.path("serverThreadsPeak").asInt()).as(row.toString()).isPositive();
            if (row.path("client").asText().equals("xferbench")) {
                assertThat(row.path("verified").asBoolean()).as(row.toString()).isTrue();
            }
            if (row.path("server").asText().equals("xferbench") && row.path("client").asText().equals("xferbench")) {
                // The server's own window: a thread-per-connection server starts its connections' threads in it.
                assertThat(row.path("serverThreadsStarted").isIntegralNumber()).as(row.toString()).isTrue();
                assertThat(row.path("serverContextSwitchesPerRequest").asDouble()).as(row.toString()).isPositive();
                if (row.path("model").asText().startsWith("virtual") && Runtime.version().feature() >= 24) {
                    assertThat(row.path("serverCarrierThreads").asInt()).as(row.toString()).isPositive();
                }
            }
            assertMethodRun(row);
        }
        assertThat(designs).contains("xferbench platform sendfile xferbench native", "xferbench virtual sendfile xferbench native",
                "xferbench virtual+pool:8 sendfile xferbench native",
                "xferbench platform sendfile xferbench http", "nginx sendfile xferbench http", "nginx aio-threads xferbench http");
        assertThat(exit).isZero();
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList()).isEmpty();
    }

    /**
     * What ran, next to what was asked: a threaded model the method asked, an event loop over HTTP the one its netty-auto
     * picked (X-Xferbench-Method), over native netty-auto as unknown; where no answer names one (nginx, wrk), null.
     */
    private static void assertMethodRun(JsonNode row) {
        JsonNode ran = row.path("methodRun");
        boolean asksADownload = row.path("server").asText().equals("xferbench") && row.path("operation").asText().equals("download");
        if (!asksADownload) {
            assertThat(row.path("method").isNull()).as(row.toString()).isTrue();
            assertThat(ran.isNull()).as(row.toString()).isTrue();
            return;
        }
        String asked = row.path("method").asText();
        assertThat(row.path("model").asText()).as(row.toString()).endsWith(" " + asked);
        if (row.path("client").asText().equals("wrk")) {
            assertThat(ran.isNull()).as(row.toString()).isTrue();
        } else if (!asked.equals("netty-auto")) {
            assertThat(ran.asText()).as(row.toString()).isEqualTo(asked);
        } else if (row.path("protocol").asText().equals("http")) {
            assertThat(ran.asText()).as(row.toString()).isIn("loop-sendfile", "netty-buffer", "netty-file-region");
        } else {
            assertThat(ran.isNull()).as("netty-auto's pick over native is unknown: %s", row).isTrue();
        }
    }

    @Test
    void aRingSizeThatIsNotAPowerOfTwoIsAUsageErrorBeforeAnyServerStarts() {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cl = io.xferbench.core.cli.Cli.commandLine(new LoadBenchCommand());
        cl.setErr(new java.io.PrintWriter(err, true));

        int exit = cl.execute("--server-jar", SERVER_JAR.toString(), "--io-uring-ring-size", "100");

        assertThat(exit).isEqualTo(io.xferbench.core.cli.Cli.USAGE);
        assertThat(err.toString().strip().lines()).hasSize(1);
        assertThat(err.toString()).contains("--io-uring-ring-size").contains("power of two");
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList()).isEmpty();
    }
}
