package io.xferbench.client.load.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.xferbench.client.ClientMain;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A server that lies only outside the measured window (while the generator warms up, or to a request that completes
 * in the drain) is caught: its wrong bodies are counted apart from the window's errors, and the row is not verified.
 */
@Timeout(120)
class OutsideTheWindowTest {
    private static final int FILE = 50 * 1024;
    private static final int CRC = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);
    private static final byte[] GOOD = body(false);
    private static final byte[] CORRUPT = body(true);

    @TempDir
    Path dir;

    private static byte[] body(boolean corrupt) {
        byte[] b = new byte[FILE];
        new ContentGenerator(DataDirectory.SEED).fill(ByteBuffer.wrap(b), 0);
        if (corrupt) {
            b[FILE / 2] ^= 1;
        }
        return b;
    }

    /** Serves {@code /f}: the n-th answer (from 0) is {@code answer.apply(n)}, which may first wait. */
    private static HttpServer serve(IntFunction<byte[]> answer) throws IOException {
        AtomicInteger served = new AtomicInteger();
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        http.createContext("/f", exchange -> {
            byte[] sent = answer.apply(served.getAndIncrement());
            exchange.sendResponseHeaders(200, sent.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(sent);
            }
        });
        http.setExecutor(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory()));
        http.start();
        return http;
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(60, TimeUnit.SECONDS)).as("the run's window event came").isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static LoadPlan timed(HttpServer http, Duration duration, Duration warmup) {
        return new LoadPlan(new InetSocketAddress("127.0.0.1", http.getAddress().getPort()), 1, 1, 0, duration, warmup, 0,
                Duration.ofSeconds(30));
    }

    private static Exchange get() {
        return new HttpGetExchange("localhost", "/f", false, FILE, CRC);
    }

    /**
     * Three wrong bodies at once, then the fourth answer held until the window has opened: every lie went to a warm-up
     * request, and the window itself saw only right bodies.
     */
    @Test
    void wrongBodiesDuringTheWarmupAreCountedAndTheRunIsNotVerified() throws Exception {
        CountDownLatch opened = new CountDownLatch(1);
        HttpServer http = serve(n -> {
            if (n == 3) {
                await(opened);
            }
            return n < 3 ? CORRUPT : GOOD;
        });
        try {
            LoadResult r = LoadEngine.run(timed(http, Duration.ofMillis(300), Duration.ofSeconds(2)), get(),
                    new LoadEngine.WindowObserver() {
                        @Override
                        public void opened() {
                            opened.countDown();
                        }
                    });
            assertThat(r.errors()).isEmpty();
            assertThat(r.requests()).isPositive();
            assertThat(r.unmeasured().warmup()).isEqualTo(Map.of("crc mismatch", 3L));
            assertThat(r.unmeasured().drain()).isEmpty();
            assertThat(r.verified()).isFalse();
        } finally {
            http.stop(0);
        }
    }

    /** The third request's answer is held until the window has closed, then wrong: a measured request ending in the drain. */
    @Test
    void aWrongBodyInTheDrainIsCountedAndTheRunIsNotVerified() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        HttpServer http = serve(n -> {
            if (n == 2) {
                await(closed);
                return CORRUPT;
            }
            return GOOD;
        });
        try {
            LoadResult r = LoadEngine.run(timed(http, Duration.ofSeconds(1), Duration.ZERO), get(),
                    new LoadEngine.WindowObserver() {
                        @Override
                        public void closed() {
                            closed.countDown();
                        }
                    });
            assertThat(r.errors()).isEmpty();
            assertThat(r.requests()).isEqualTo(2);
            assertThat(r.unmeasured().drain()).isEqualTo(Map.of("crc mismatch", 1L));
            assertThat(r.unmeasured().warmup()).isEmpty();
            assertThat(r.verified()).isFalse();
        } finally {
            http.stop(0);
        }
    }

    /** {@code client load} says so in the JSON row and the table, and exits 1, as {@code client download} does. */
    @Test
    void clientLoadExitsOneAndShowsTheWarmupErrors() throws Exception {
        HttpServer http = serve(n -> n < 3 ? CORRUPT : GOOD);
        try {
            String port = Integer.toString(http.getAddress().getPort());
            Path json = dir.resolve("run.json");
            String[] common = {"load", "--port", port, "--protocol", "http", "--path", "/f", "--concurrency", "1", "--threads", "1",
                "--warmup", "2s", "--duration", "300ms"};
            assertThat(execute(common, "--format", "json", "--out", json.toString())).isEqualTo(1);
            JsonNode row = new ObjectMapper().readTree(json.toFile()).get("rows").get(0);
            assertThat(row.get("errors").asLong()).isZero();
            assertThat(row.get("warmupErrors").asLong()).isEqualTo(3);
            assertThat(row.get("warmupErrorsByCause").get("crc mismatch").asLong()).isEqualTo(3);
            assertThat(row.get("drainErrors").asLong()).isZero();
            assertThat(row.get("verified").asBoolean()).isFalse();
        } finally {
            http.stop(0);
        }
        http = serve(n -> n < 3 ? CORRUPT : GOOD);
        try {
            Path table = dir.resolve("run.txt");
            assertThat(execute(new String[] {"load", "--port", Integer.toString(http.getAddress().getPort()), "--protocol", "http",
                "--path", "/f", "--concurrency", "1", "--threads", "1", "--warmup", "2s", "--duration", "300ms"},
                    "--out", table.toString())).isEqualTo(1);
            String text = Files.readString(table);
            assertThat(text).contains("warm-up/drain errors").contains("warm-up 3 (crc mismatch: 3)");
            assertThat(text.lines().filter(l -> l.startsWith("http ")).findFirst().orElseThrow()).endsWith("NO");
        } finally {
            http.stop(0);
        }
    }

    private static int execute(String[] common, String... more) {
        CommandLine cl = Cli.commandLine(new ClientMain());
        cl.setErr(new PrintWriter(new StringWriter(), true));
        String[] all = new String[common.length + more.length];
        System.arraycopy(common, 0, all, 0, common.length);
        System.arraycopy(more, 0, all, common.length, more.length);
        return cl.execute(all);
    }
}
