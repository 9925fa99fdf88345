package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.nativeio.JvmFlags;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two client processes (--client-id 1/2 and 2/2, one --start-at) against one server, then {@code client merge}: every
 * row's bytes are both clients' (every one verified), its MiB/s is their sum over the union of their measured spans,
 * and the report says it is two clients.
 */
@Timeout(300)
class CooperatingClientsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SIZE = 16 * Sizes.MiB;
    private static final int REPEAT = 4;

    @TempDir
    Path dataDir;
    @TempDir
    Path out;

    @Test
    void twoClientProcessesMergeIntoOneVerifiedReport() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            // Far enough ahead for both JVMs to start on a busy machine.
            String startAt = Long.toString(Instant.now().plusSeconds(8).getEpochSecond());
            List<Process> clients = new ArrayList<>();
            for (int i = 1; i <= 2; i++) {
                clients.add(client(server.port(), i, startAt));
            }
            for (int i = 0; i < 2; i++) {
                assertThat(clients.get(i).waitFor(240, TimeUnit.SECONDS)).as("client " + (i + 1) + " finished").isTrue();
                assertThat(clients.get(i).exitValue()).as("client " + (i + 1) + " exit status").isZero();
            }
            Path merged = out.resolve("merged.json");
            int status = Cli.run(new ClientMain(), "merge", report(1).toString(), report(2).toString(), "--format", "json",
                    "--out", merged.toString());
            assertThat(status).as("merge exit status").isZero();

            JsonNode m = JSON.readTree(merged.toFile());
            JsonNode a = JSON.readTree(report(1).toFile()).get("results");
            JsonNode b = JSON.readTree(report(2).toFile()).get("results");
            assertThat(m.at("/environment/clients/count").asInt()).isEqualTo(2);
            assertThat(m.at("/environment/clients/members/0/clientId").asText()).isEqualTo("1/2");
            assertThat(m.at("/environment/clients/members/1/clientId").asText()).isEqualTo("2/2");
            assertThat(m.at("/environment/clients/members/0/host").isNull()).as("each client's host").isFalse();
            assertThat(m.get("results").size()).isEqualTo(2);
            for (int r = 0; r < 2; r++) {
                JsonNode row = m.get("results").get(r);
                String what = row.get("method").asText();
                assertThat(row.get("error").isNull()).as(what + ": " + row.get("error")).isTrue();
                assertThat(row.get("verified").asBoolean()).as(what + " verified").isTrue();
                long bytes = row.get("bytes").asLong();
                assertThat(bytes).as(what + ": every byte of both clients").isEqualTo(2 * REPEAT * SIZE)
                        .isEqualTo(a.get(r).get("bytes").asLong() + b.get(r).get("bytes").asLong());
                assertThat(row.get("transfers").asInt()).isEqualTo(2 * REPEAT);
                long from = Math.min(a.get(r).get("startedAtEpochMicros").asLong(), b.get(r).get("startedAtEpochMicros").asLong());
                long to = Math.max(a.get(r).get("endedAtEpochMicros").asLong(), b.get(r).get("endedAtEpochMicros").asLong());
                assertThat(row.get("startedAtEpochMicros").asLong()).isEqualTo(from);
                assertThat(row.get("endedAtEpochMicros").asLong()).isEqualTo(to);
                assertThat(row.get("mibPerSec").asDouble()).as(what + ": the sum over the same window")
                        .isCloseTo(Sizes.mib(bytes) / ((to - from) / 1e6), org.assertj.core.data.Offset.offset(1e-6));
            }
            // Neither client measured before --start-at (whether they then overlap is up to the scheduler: not asserted).
            for (JsonNode client : List.of(a, b)) {
                assertThat(client.get(0).get("startedAtEpochMicros").asLong()).as("waited for --start-at")
                        .isGreaterThanOrEqualTo(Long.parseLong(startAt) * 1_000_000);
            }
            double overlap = Double.MAX_VALUE;
            for (int r = 0; r < 2; r++) {
                long latestStart = Math.max(a.get(r).get("startedAtEpochMicros").asLong(), b.get(r).get("startedAtEpochMicros").asLong());
                long earliestEnd = Math.min(a.get(r).get("endedAtEpochMicros").asLong(), b.get(r).get("endedAtEpochMicros").asLong());
                JsonNode row = m.get("results").get(r);
                long span = row.get("endedAtEpochMicros").asLong() - row.get("startedAtEpochMicros").asLong();
                overlap = Math.min(overlap, Math.max(0, earliestEnd - latestStart) / (double) span);
            }
            assertThat(m.at("/environment/clients/overlapMinimum").asDouble()).as("how much the clients measured at once")
                    .isCloseTo(overlap, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(server.openMeasurementWindows()).isZero();
        }
    }

    private Path report(int id) {
        return out.resolve("client" + id + ".json");
    }

    private Process client(int port, int id, String startAt) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(JvmFlags.required());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ClientMain.class.getName(), "download",
                "--host", "127.0.0.1", "--port", Integer.toString(port), "--client-id", id + "/2", "--start-at", startAt,
                "--method", "stream,transfer-to", "--size", Long.toString(SIZE), "--repeat", Integer.toString(REPEAT), "--warmup", "0",
                "--quiet", "--format", "json", "--out", report(id).toString()));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.resolve("client" + id + ".log").toFile()).start();
    }
}
