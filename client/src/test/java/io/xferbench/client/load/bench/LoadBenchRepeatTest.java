package io.xferbench.client.load.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.ServerJar;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code load-bench --repeat 2} end to end at a tiny scale: two windows a row, measured round by round, at two concurrencies. */
@Timeout(300)
class LoadBenchRepeatTest {
    private static final Path SERVER_JAR = ServerJar.PATH;

    @Test
    void everyRowHasTwoWindowsTakenInInterleavedRoundsAndTheirSpread(@TempDir Path tmp) throws Exception {
        ServerJar.assumeBuilt("load-bench");
        Path out = tmp.resolve("load.json");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        PrintStream err = System.err;
        int exit;
        System.setErr(new PrintStream(progress, true, StandardCharsets.UTF_8));
        try {
            exit = io.xferbench.core.cli.Cli.commandLine(new LoadBenchCommand()).execute("--server-jar", SERVER_JAR.toString(),
                    "--io-models", "platform,netty-epoll", "--concurrency", "1,2", "--ops", "download", "--no-wrk",
                    "--duration", "1s", "--warmup", "200ms", "--jit-settle", "2s", "--file-size", "8KiB", "--repeat", "2",
                    "--format", "json", "--out", out.toString());
        } finally {
            System.setErr(err);
        }
        String log = progress.toString(StandardCharsets.UTF_8);
        System.err.print(log);

        // Round 1 measured every server at both concurrencies before round 2 started, which ran them in reverse; each
        // row's first window came right after its JIT settle, and only the first.
        List<String> windows = log.lines().filter(l -> (l.contains(", round ") || l.contains("settling its JIT"))
                        && l.startsWith("xferbench: xferbench "))
                .map(l -> l.replaceAll("xferbench: xferbench (\\S+) \\S+, xferbench (\\S+) \\S+, (\\d) connections.*, round (\\d) of 2.*",
                        "$4 $1 $2 $3").replaceAll("xferbench: xferbench (\\S+) \\S+, xferbench (\\S+) \\S+, (\\d) connections: settling.*",
                        "settle $1 $2 $3"))
                .toList();
        assertThat(windows).containsExactly(
                "settle platform native 1", "1 platform native 1", "settle platform http 1", "1 platform http 1",
                "settle platform native 2", "1 platform native 2", "settle platform http 2", "1 platform http 2",
                "settle netty-epoll native 1", "1 netty-epoll native 1", "settle netty-epoll http 1", "1 netty-epoll http 1",
                "settle netty-epoll native 2", "1 netty-epoll native 2", "settle netty-epoll http 2", "1 netty-epoll http 2",
                "2 netty-epoll http 2", "2 netty-epoll native 2", "2 netty-epoll http 1", "2 netty-epoll native 1",
                "2 platform http 2", "2 platform native 2", "2 platform http 1", "2 platform native 1");

        JsonNode doc = new ObjectMapper().readTree(out.toFile());
        assertThat(doc.path("settings").path("repeat").asInt()).isEqualTo(2);
        assertThat(doc.path("settings").path("jitSettle").asText()).startsWith("at most 2000 ms per row");
        Map<String, List<JsonNode>> byGroup = new HashMap<>();
        Map<String, JsonNode> atOne = new HashMap<>();
        List<String> models = new ArrayList<>();
        for (JsonNode row : doc.path("rows")) {
            if (row.has("skipped")) {
                MethodAssumptions.assumeAvailable(row.path("server").asText() + " " + row.path("model").asText(),
                        Availability.unavailable(row.path("skipped").asText()));
            }
            assertThat(row.path("repeats").asInt()).as(row.toString()).isEqualTo(2);
            double rate = row.path("requestsPerSec").asDouble();
            assertThat(row.path("requestsPerSecMin").asDouble()).as(row.toString()).isPositive().isLessThanOrEqualTo(rate);
            assertThat(row.path("requestsPerSecMax").asDouble()).as(row.toString()).isGreaterThanOrEqualTo(rate);
            assertThat(row.path("requestsPerSecByRound")).as(row.toString()).hasSize(2);
            assertThat(row.path("errors").asLong()).as(row.toString()).isZero();
            assertThat(row.path("verified").asBoolean()).as(row.toString()).isTrue();
            if (row.path("server").asText().equals("nginx")) {
                assertThat(row.has("jitSettleSlices")).as(row.toString()).isFalse(); // not a JVM
                assertThat(row.path("ratioToBestMedian").isNull()).as(row.toString()).isTrue();
                assertThat(row.path("medianToBestMedian").isNull()).as(row.toString()).isTrue();
                continue;
            }
            models.add(row.path("model").asText() + " " + row.path("protocol").asText() + " " + row.path("concurrency").asInt());
            // 1 s slices within a 2 s budget: one or two, and three quiet ones in a row are needed to settle.
            assertThat(row.path("jitSettleSlices").asInt()).as(row.toString()).isBetween(1, 2);
            assertThat(row.path("jitSettleSeconds").asDouble()).as(row.toString())
                    .isGreaterThanOrEqualTo(row.path("jitSettleSlices").asDouble());
            assertThat(row.path("jitSettled").asBoolean()).as(row.toString()).isFalse();
            double median = row.path("ratioToBestMedian").asDouble();
            assertThat(median).as(row.toString()).isBetween(row.path("ratioToBestMin").asDouble(), row.path("ratioToBestMax").asDouble());
            assertThat(row.path("ratioToBestMax").asDouble()).as(row.toString()).isLessThanOrEqualTo(1.0);
            byGroup.computeIfAbsent(row.path("protocol").asText() + " " + row.path("concurrency").asInt(), k -> new ArrayList<>()).add(row);
            String series = row.path("model").asText() + " " + row.path("protocol").asText();
            if (row.path("concurrency").asInt() == 1) {
                atOne.put(series, row);
                assertThat(row.path("fewestConnections").isNull()).as(row.toString()).isTrue();
                continue;
            }
            // At 2 connections each round's rate is compared with the same model and protocol at 1 in that round.
            JsonNode one = atOne.get(series);
            assertThat(row.path("fewestConnections").asInt()).as(row.toString()).isEqualTo(1);
            double first = row.path("requestsPerSecByRound").get(0).asDouble() / one.path("requestsPerSecByRound").get(0).asDouble();
            double second = row.path("requestsPerSecByRound").get(1).asDouble() / one.path("requestsPerSecByRound").get(1).asDouble();
            assertThat(row.path("ratioToFewestConnectionsMin").asDouble()).as(row.toString()).isCloseTo(Math.min(first, second), within(1e-9));
            assertThat(row.path("ratioToFewestConnectionsMax").asDouble()).as(row.toString()).isCloseTo(Math.max(first, second), within(1e-9));
        }
        assertThat(models).containsExactly("platform sendfile native 1", "platform sendfile http 1", "platform sendfile native 2",
                "platform sendfile http 2", "netty-epoll netty-auto native 1", "netty-epoll netty-auto http 1",
                "netty-epoll netty-auto native 2", "netty-epoll netty-auto http 2"); // unasked, a loop runs its own pick
        // Each round's ratio is the row's rate over the best model's in the same round; the other ratio is of the
        // shown (median) windows.
        for (List<JsonNode> group : byGroup.values()) {
            double[] best = new double[2];
            double bestMedian = 0;
            for (JsonNode row : group) {
                for (int r = 0; r < 2; r++) {
                    best[r] = Math.max(best[r], row.path("requestsPerSecByRound").get(r).asDouble());
                }
                bestMedian = Math.max(bestMedian, row.path("requestsPerSec").asDouble());
            }
            for (JsonNode row : group) {
                double first = row.path("requestsPerSecByRound").get(0).asDouble() / best[0];
                double second = row.path("requestsPerSecByRound").get(1).asDouble() / best[1];
                assertThat(row.path("ratioToBestMin").asDouble()).as(row.toString()).isCloseTo(Math.min(first, second), within(1e-9));
                assertThat(row.path("ratioToBestMax").asDouble()).as(row.toString()).isCloseTo(Math.max(first, second), within(1e-9));
                assertThat(row.path("medianToBestMedian").asDouble()).as(row.toString())
                        .isCloseTo(row.path("requestsPerSec").asDouble() / bestMedian, within(1e-9));
            }
        }
        assertThat(exit).isZero();
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList()).isEmpty();
    }
}
