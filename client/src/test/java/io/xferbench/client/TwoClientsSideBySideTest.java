package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code download --method all} runs side by side on one server, in-process: each gets every row of its own,
 * verified (a shared measurement window used to fail most rows of both or hand one run the other's numbers).
 */
@Timeout(300)
class TwoClientsSideBySideTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;
    @TempDir
    Path out;

    @Test
    void bothRunsCompleteWithEveryRowVerified() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             ExecutorService clients = Executors.newFixedThreadPool(2)) {
            List<Future<Integer>> runs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Path report = out.resolve("run" + i + ".json");
                runs.add(clients.submit(() -> io.xferbench.core.cli.Cli.commandLine(new ClientMain()).execute("download", "--host", "127.0.0.1",
                        "--port", Integer.toString(server.port()), "--method", "all", "--size", "0,64KiB", "--repeat", "3",
                        "--warmup", "1", "--concurrency", "2", "--format", "json", "--out", report.toString())));
            }
            for (int i = 0; i < 2; i++) {
                assertThat(runs.get(i).get()).as("exit code of run " + i).isZero();
                JsonNode results = JSON.readTree(out.resolve("run" + i + ".json").toFile()).get("results");
                assertThat(results.size()).as("one row per method and size").isEqualTo(2 * (int) java.util.stream.StreamSupport
                        .stream(results.spliterator(), false).map(r -> r.get("method").asText()).distinct().count());
                for (JsonNode row : results) {
                    String what = "run " + i + " " + row.get("method").asText() + " " + row.get("size").asLong();
                    if (!row.get("skipped").isNull()) {
                        continue; // a method this machine cannot run, with its reason
                    }
                    assertThat(row.get("error").isNull()).as(what + ": " + row.get("error")).isTrue();
                    assertThat(row.get("verified").asBoolean()).as(what).isTrue();
                    assertThat(row.get("transfers").asInt()).as(what + ": 3 rounds x 2 connections").isEqualTo(6);
                    assertThat(row.get("shared").isBoolean()).as(what + ": says whether the window was shared").isTrue();
                }
            }
            assertThat(server.openMeasurementWindows()).isZero();
        }
    }
}
