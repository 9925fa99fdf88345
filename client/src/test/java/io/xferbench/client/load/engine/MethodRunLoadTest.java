package io.xferbench.client.load.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.netty.channel.epoll.Epoll;
import io.xferbench.client.load.bench.RepeatedRows;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.exchange.MethodsRun;
import io.xferbench.client.load.exchange.NativeDownloadExchange;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadReportFormat;
import io.xferbench.client.load.report.TestEnvironments;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load row says which download method ran next to the one asked for: over HTTP as the server's
 * {@code X-Xferbench-Method} named it, answer by answer; over the native protocol the one asked (netty-auto's pick is
 * not on that wire); against a server that names none, unknown. The table shows both where they differ.
 */
@Timeout(120)
class MethodRunLoadTest {
    private static final int FILE = 50 * 1024;
    private static final int CRC = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);
    private static final String PATH = "/" + DataDirectory.generatedName(FILE);

    @TempDir
    Path dataDir;

    private static LoadPlan byCount(int port, long requests) {
        return new LoadPlan(new InetSocketAddress("127.0.0.1", port), 2, 1, requests, null, Duration.ZERO, 0, Duration.ofSeconds(30));
    }

    private static LoadReport.Row row(String model, String protocol, LoadResult r, String asked) {
        return new LoadReport.Row("xferbench", model, "xferbench", protocol, "download", FILE, 2, r, null, null, null, null, null)
                .withMethod(asked);
    }

    private static JsonNode json(LoadReport.Row row) throws Exception {
        String doc = LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, List.of(row), LoadReportFormat.JSON);
        return new ObjectMapper().readTree(doc).path("rows").get(0);
    }

    /** The table's line for {@code row}: the one after the column names. */
    private static String tableLine(LoadReport.Row row) throws Exception {
        return LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, List.of(row), LoadReportFormat.TABLE).lines().skip(3).findFirst().orElseThrow();
    }

    @Test
    void anHttpRowAskingNettyAutoOfAnEventLoopSaysWhatItPicked() throws Exception {
        MethodAssumptions.assumeAvailable("netty-epoll", Epoll.isAvailable() ? Availability.AVAILABLE
                : Availability.unavailable("Netty epoll: " + Epoll.unavailabilityCause()));
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel("netty-epoll"))) {
            server.data().generated(FILE);
            LoadResult http = LoadEngine.run(byCount(server.port(), 40),
                    new HttpGetExchange("127.0.0.1:" + server.port(), PATH + "?method=netty-auto", false, FILE, CRC));
            LoadResult nativ = LoadEngine.run(byCount(server.port(), 40), new NativeDownloadExchange("netty-auto", FILE, 0, "", CRC));
            assertThat(http.verified()).isTrue();
            assertThat(nativ.verified()).isTrue();

            // On epoll netty-auto sends every body as a file region, and says so in each answer.
            LoadReport.Row overHttp = row("netty-epoll netty-auto", "http", http, "netty-auto");
            assertThat(http.methodsRun().answers()).containsExactly(Map.entry("netty-file-region", 40L));
            assertThat(json(overHttp).path("method").asText()).isEqualTo("netty-auto");
            assertThat(json(overHttp).path("methodRun").asText()).isEqualTo("netty-file-region");
            assertThat(tableLine(overHttp)).contains("netty-epoll netty-auto, ran netty-file-region");

            // The native header names no method: the pick is said to be unknown, not guessed.
            LoadReport.Row overNative = row("netty-epoll netty-auto", "native", nativ, "netty-auto");
            assertThat(json(overNative).path("methodRun").isNull()).as("unknown: %s", json(overNative)).isTrue();
            assertThat(tableLine(overNative)).contains("netty-epoll netty-auto").doesNotContain(", ran");
        }
    }

    @Test
    void aRowAskingTransferToRanTransferToAndShowsNoSecondMethod() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            server.data().generated(FILE);
            LoadResult http = LoadEngine.run(byCount(server.port(), 20),
                    new HttpGetExchange("127.0.0.1:" + server.port(), PATH + "?method=transfer-to", false, FILE, CRC));
            LoadResult nativ = LoadEngine.run(byCount(server.port(), 20), new NativeDownloadExchange("transfer-to", FILE, 0, "", CRC));
            for (LoadReport.Row row : List.of(row("platform transfer-to", "http", http, "transfer-to"),
                    row("platform transfer-to", "native", nativ, "transfer-to"))) {
                assertThat(row.verified()).as(row.protocol()).isTrue();
                assertThat(json(row).path("method").asText()).isEqualTo("transfer-to");
                assertThat(json(row).path("methodRun").asText()).as(row.protocol()).isEqualTo("transfer-to");
                assertThat(tableLine(row)).as(row.protocol()).doesNotContain(", ran ");
            }
        }
    }

    @Test
    void aServerThatNamesNoMethodLeavesWhatRanUnknown() throws Exception {
        HttpServer http = serve(null);
        try {
            LoadResult r = LoadEngine.run(byCount(http.getAddress().getPort(), 20),
                    new HttpGetExchange("localhost", "/f?method=sendfile", false, FILE, CRC));
            assertThat(r.verified()).isTrue();
            LoadReport.Row row = row("some server", "http", r, "sendfile");
            assertThat(row.methodRun()).isNull();
            assertThat(json(row).has("methodRun")).isTrue();
            assertThat(json(row).path("methodRun").isNull()).isTrue();
            assertThat(tableLine(row)).doesNotContain(", ran ");
        } finally {
            http.stop(0);
        }
    }

    @Test
    void answersNamingDifferentMethodsMakeAMixedRowAndAHeadNamesNone() throws Exception {
        AtomicLong answers = new AtomicLong();
        HttpServer http = serve(() -> answers.getAndIncrement() % 2 == 0 ? "loop-sendfile" : "netty-file-region");
        try {
            int port = http.getAddress().getPort();
            LoadResult r = LoadEngine.run(byCount(port, 20), new HttpGetExchange("localhost", "/f", false, FILE, CRC));
            assertThat(r.methodsRun().answers()).containsOnlyKeys("loop-sendfile", "netty-file-region");
            LoadReport.Row row = row("netty-io-uring netty-auto", "http", r, "netty-auto");
            assertThat(json(row).path("methodRun").asText()).isEqualTo("mixed: loop-sendfile, netty-file-region");
            assertThat(tableLine(row)).contains("netty-io-uring netty-auto, ran mixed: loop-sendfile, netty-file-region");

            LoadResult head = LoadEngine.run(byCount(port, 4), new HttpGetExchange("localhost", "/f", true, FILE, CRC));
            assertThat(head.verified()).isTrue();
            assertThat(head.methodsRun().describe()).isNull();
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aRepeatedRowNamesWhatRanInAnyOfItsWindows() {
        LoadResult first = result(Map.of("loop-sendfile", 10L));
        LoadResult second = result(Map.of("netty-file-region", 10L));
        LoadReport.Row folded = RepeatedRows.merge(List.of(List.of(row("m", "http", first, "netty-auto"),
                row("m", "http", second, "netty-auto")))).get(0);
        assertThat(folded.method()).isEqualTo("netty-auto");
        assertThat(folded.methodRun()).isEqualTo("mixed: loop-sendfile, netty-file-region");
    }

    private static LoadResult result(Map<String, Long> methods) {
        return new LoadResult(2, 1, 0, 10, Map.of(), 0, 1, 10, 1, new LoadResult.LatencySummary(1, 2, 3, 4, 5), 1, 0.1, Map.of(),
                UnmeasuredErrors.NONE, MethodsRun.of(methods));
    }

    /** Serves the generated content at {@code /f}; {@code method} names each answer's X-Xferbench-Method, or null for none. */
    private static HttpServer serve(Supplier<String> method) throws IOException {
        byte[] body = new byte[FILE];
        new ContentGenerator(DataDirectory.SEED).fill(ByteBuffer.wrap(body), 0);
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        http.createContext("/f", exchange -> {
            if (method != null) {
                exchange.getResponseHeaders().add("X-Xferbench-Method", method.get());
            }
            if (exchange.getRequestMethod().equals("HEAD")) { // the JDK's server takes a HEAD's length as a header only
                exchange.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
                return;
            }
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        // Virtual threads: nothing outlives the test once the server stops.
        http.setExecutor(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory()));
        http.start();
        return http;
    }
}
