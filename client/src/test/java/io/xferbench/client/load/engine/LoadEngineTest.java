package io.xferbench.client.load.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.exchange.NativeDownloadExchange;
import io.xferbench.client.load.exchange.NativeStatExchange;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The load generator against a real xferbench server and the JDK's HTTP server: counts, verification, errors. */
@Timeout(120)
class LoadEngineTest {
    private static final int FILE = 50 * 1024;
    private static final int CRC = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);

    @TempDir
    Path dataDir;

    private static LoadPlan byCount(int port, int connections, long requests, double rate) {
        return new LoadPlan(new InetSocketAddress("127.0.0.1", port), connections, 2, requests, null, Duration.ZERO, rate,
                Duration.ofSeconds(30));
    }

    @Test
    void nativeClosedLoopCompletesExactlyTheRequestedCountAllVerified() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withMaxConnections(300))) {
            server.data().generated(FILE);
            LoadResult r = LoadEngine.run(byCount(server.port(), 200, 3000, 0),
                    new NativeDownloadExchange("transfer-to", FILE, 0, "", CRC));
            assertThat(r.errors()).isEmpty();
            assertThat(r.requests()).isEqualTo(3000);
            assertThat(r.unfinished()).isZero();
            assertThat(r.verified()).isTrue();
            assertThat(r.mibPerSecond()).isPositive();
            assertThat(r.latency().p99()).isGreaterThanOrEqualTo(r.latency().p50());
        }
    }

    @Test
    void aServerAnnouncingAnotherFileIsCountedAsAnError() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            server.data().generated(FILE);
            LoadResult r = LoadEngine.run(byCount(server.port(), 4, 100, 0),
                    new NativeDownloadExchange("transfer-to", FILE, 0, "", CRC ^ 1));
            assertThat(r.requests()).isZero();
            assertThat(r.errors()).containsEntry("crc mismatch", 100L);
            assertThat(r.verified()).isFalse();
        }
    }

    @Test
    void nativeErrorFramesAreCountedByStatus() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            LoadResult r = LoadEngine.run(byCount(server.port(), 2, 20, 0),
                    new NativeDownloadExchange("no-such-method", FILE, 0, "", CRC));
            assertThat(r.requests()).isZero();
            assertThat(r.errorCount()).isEqualTo(20);
            assertThat(r.errors().keySet()).allMatch(k -> k.equals("UNAVAILABLE") || k.equals("BAD_REQUEST"));
        }
    }

    @Test
    void httpBodiesAreVerified() throws Exception {
        HttpServer http = serve(UnaryOperator.identity(), 0);
        try {
            LoadResult r = LoadEngine.run(byCount(http.getAddress().getPort(), 16, 500, 0),
                    new HttpGetExchange("localhost", "/f", false, FILE, CRC));
            assertThat(r.errors()).isEmpty();
            assertThat(r.requests()).isEqualTo(500);
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aCorruptHttpBodyIsAFailureNotAResult() throws Exception {
        HttpServer http = serve(b -> {
            b[FILE / 2] ^= 1;
            return b;
        }, 0);
        try {
            LoadResult r = LoadEngine.run(byCount(http.getAddress().getPort(), 4, 50, 0),
                    new HttpGetExchange("localhost", "/f", false, FILE, CRC));
            assertThat(r.requests()).isZero();
            assertThat(r.errors()).containsEntry("crc mismatch", 50L);
        } finally {
            http.stop(0);
        }
    }

    /**
     * One connection asked for 100 requests/s from a server that needs 50 ms each: the schedule falls behind,
     * and latency measured from each intended start grows with the backlog (the 20th request was due at 190 ms
     * and cannot finish before 1000 ms). A generator that measured from the actual send would report ~50 ms.
     */
    @Test
    void openLoopLatencyCountsTheTimeARequestWaitedForItsTurn() throws Exception {
        HttpServer http = serve(UnaryOperator.identity(), 50);
        try {
            LoadResult r = LoadEngine.run(byCount(http.getAddress().getPort(), 1, 20, 100),
                    new HttpGetExchange("localhost", "/f", false, FILE, CRC));
            assertThat(r.requests()).isEqualTo(20);
            assertThat(r.latency().max()).isGreaterThanOrEqualTo(1000 - 190 - 5);
        } finally {
            http.stop(0);
        }
    }

    @Test
    void aRefusedConnectionIsCountedAndTheRunStillEnds() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        LoadPlan plan = new LoadPlan(new InetSocketAddress("127.0.0.1", port), 3, 1, 0, Duration.ofMillis(300),
                Duration.ZERO, 0, Duration.ofSeconds(1));
        LoadResult r = LoadEngine.run(plan, new HttpGetExchange("localhost", "/f", false, FILE, CRC));
        assertThat(r.requests()).isZero();
        assertThat(r.errorCount()).isPositive();
        assertThat(r.errors().keySet()).allMatch(k -> k.startsWith("io: ") || k.startsWith("connect: "));
    }

    @Test
    void anObserverThatIsDoneEndsATimedWindowEarlyAndTheRateIsOverTheWindowItHad() throws Exception {
        HttpServer http = serve(UnaryOperator.identity(), 10); // one request at a time, 10 ms each: at most 100/s
        try {
            LoadPlan minute = new LoadPlan(new InetSocketAddress("127.0.0.1", http.getAddress().getPort()), 2, 1, 0,
                    Duration.ofMinutes(1), Duration.ZERO, 0, Duration.ofSeconds(5));
            long[] openedAt = new long[1];
            int[] asked = new int[1];
            long start = System.nanoTime();
            LoadResult r = LoadEngine.run(minute, new HttpGetExchange("localhost", "/f", false, FILE, CRC),
                    new LoadEngine.WindowObserver() {
                        @Override
                        public void opened() {
                            openedAt[0] = System.nanoTime();
                        }

                        @Override
                        public boolean done() {
                            asked[0]++;
                            return System.nanoTime() - openedAt[0] >= 500_000_000L;
                        }
                    });

            assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(20).toNanos());
            assertThat(asked[0]).isGreaterThan(1);
            assertThat(r.seconds()).isBetween(0.45, 5.0);
            assertThat(r.errors()).isEmpty();
            // Over the half second it ran, not the minute it was planned for (that would be about 1/s).
            assertThat(r.requestsPerSecond()).isBetween(20.0, 110.0);
        } finally {
            http.stop(0);
        }
    }

    private static HttpServer serve(UnaryOperator<byte[]> tamper, long delayMillis) throws IOException {
        byte[] body = new byte[FILE];
        new ContentGenerator(DataDirectory.SEED).fill(ByteBuffer.wrap(body), 0);
        byte[] sent = tamper.apply(body);
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        http.createContext("/f", exchange -> {
            try {
                if (delayMillis > 0) {
                    Thread.sleep(delayMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.sendResponseHeaders(200, sent.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(sent);
            }
        });
        // Virtual threads: nothing outlives the test once the server stops.
        http.setExecutor(delayMillis > 0 ? Executors.newSingleThreadExecutor(Thread.ofVirtual().factory())
                : Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory()));
        http.start();
        return http;
    }

    @Test
    void existChecksAnswerOverBothProtocols() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            server.data().generated(FILE);
            String name = DataDirectory.generatedName(FILE);
            LoadResult stat = LoadEngine.run(byCount(server.port(), 8, 500, 0), new NativeStatExchange(name, FILE, ""));
            assertThat(stat.errors()).isEmpty();
            assertThat(stat.requests()).isEqualTo(500);
            LoadResult head = LoadEngine.run(byCount(server.port(), 8, 500, 0),
                    new HttpGetExchange("localhost", "/" + name, true, FILE, CRC));
            assertThat(head.errors()).isEmpty();
            assertThat(head.requests()).isEqualTo(500);
            LoadResult missing = LoadEngine.run(byCount(server.port(), 2, 10, 0), new NativeStatExchange("nope.bin", FILE, ""));
            assertThat(missing.errors()).containsEntry("absent", 10L);
            LoadResult wrongSize = LoadEngine.run(byCount(server.port(), 2, 10, 0),
                    new HttpGetExchange("localhost", "/" + name, true, FILE + 1, CRC));
            assertThat(wrongSize.errors()).containsEntry("length mismatch", 10L);
        }
    }
}
