package io.xferbench.server.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.UploadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Prepared;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.CapturedLog;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.HttpServingTest;
import io.xferbench.server.IoModelTest;
import io.xferbench.server.MalformedRequestStormTest;
import io.xferbench.server.ServerModels;
import io.xferbench.server.StatDeleteTest;
import io.xferbench.server.UploadIntegrationTest;
import io.xferbench.server.WholeBodyUploads;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The event-loop models ({@code netty-epoll}, {@code netty-io-uring}, each also opening files on its loop) with the client's own XferConnection: downloads
 * verified at the edge sizes and concurrently, uploads landed by rename, PREPARE and the measurement window, HTTP,
 * the connection limit, the idle timeout and shutdown.
 */
@Timeout(120)
@ParameterizedClass
@ValueSource(strings = {"netty-epoll", "netty-io-uring", "netty-epoll-inline", "netty-io-uring-inline"})
class EventLoopServerTest {
    @Parameter
    String model;

    @TempDir
    Path dataDir;
    @TempDir
    Path clientDir;

    @BeforeEach
    void transportAvailable() {
        IoModelTest.assumeModelRuns(model);
    }

    private ServerConfig config() {
        return ServerConfig.loopback(dataDir).withIoModel(model);
    }

    private static Request generated(long size) {
        return Request.download("netty-auto", size, Flags.VERIFY_CRC32C, 0);
    }

    private static void assertStatus(StatDeleteTest.ThrowingRunnable r, Status status) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(status));
    }

    @Test
    void downloadsOfEverySizeVerifyAgainstTheGeneratedContentOnOneConnection() throws Exception {
        DataDirectory local = new DataDirectory(clientDir);
        try (XferServer server = XferServer.start(config());
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            // 0, a byte, a small file, and several MiB: many sendfile calls and socket buffers' worth.
            for (long size : new long[] {0, 1, 50 * 1024, 8L * 1024 * 1024 + 17}) {
                DownloadResult r = c.download(generated(size));
                assertThat(r.bytes()).as("bytes of " + size).isEqualTo(size);
                assertThat(r.verified()).as("verified " + size).isTrue();
                // The header's checksum is the generated content's, not merely consistent with what was sent.
                assertThat(r.expectedCrc32c()).as("crc of " + size).isEqualTo(local.generated(size).crc32c());
            }
            TestFile named = server.data().generated(12_345);
            String name = named.path().getFileName().toString();
            DownloadResult byName = c.download(new Request(Op.DOWNLOAD, "netty-auto", name, "", 0, 0, Flags.VERIFY_CRC32C, 0));
            assertThat(byName.verified()).isTrue();
            assertThat(byName.bytes()).isEqualTo(12_345);
        }
    }

    /**
     * Where a download's open and a STAT run: the open-on-loop models serve a file that has its checksum record
     * (native by name and generated, HTTP GET and HEAD, STAT) without starting a thread of their file pool, and so does
     * {@code netty-io-uring}, which opens and stats on its ring; {@code netty-epoll} hands every one to the pool.
     */
    @Test
    void openOnLoopAndRingModelsServeRecordedFilesWithoutTheirFilePool() throws Exception {
        int size = 50 * 1024;
        boolean onLoop = model.endsWith(ServerModels.INLINE);
        boolean onRing = model.equals(EventLoopTransport.IO_URING.model);
        try (XferServer server = XferServer.start(config());
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            TestFile f = server.data().generated(size); // written, with its record, before any request
            String name = f.path().getFileName().toString();
            assertThat(c.download(generated(size)).verified()).isTrue();
            assertThat(c.download(new Request(Op.DOWNLOAD, "netty-auto", name, "", 0, 0, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            java.net.URI uri = java.net.URI.create("http://127.0.0.1:" + server.port() + "/" + name);
            java.net.http.HttpResponse<byte[]> get = http.send(java.net.http.HttpRequest.newBuilder(uri).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofByteArray());
            assertThat(get.statusCode()).isEqualTo(200);
            assertThat(get.body()).hasSize(size);
            java.net.http.HttpResponse<Void> head = http.send(java.net.http.HttpRequest.newBuilder(uri)
                    .method("HEAD", java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding());
            assertThat(head.statusCode()).isEqualTo(200);
            if (onLoop || onRing) {
                assertThat(fileThreads(server)).as(model + ": file-pool threads started by downloads").isZero();
            } else {
                assertThat(fileThreads(server)).as(model + ": file-pool threads started by downloads").isPositive();
            }
            FileStat stat = c.stat(name);
            assertThat(stat.size()).isEqualTo(size);
            assertThat(stat.mtimeNanos()).isEqualTo(Files.getLastModifiedTime(f.path()).to(java.util.concurrent.TimeUnit.NANOSECONDS));
            assertThat(c.stat("absent").exists()).isFalse();
            if (onLoop || onRing) {
                assertThat(fileThreads(server)).as(model + ": file-pool threads started by STAT").isZero();
            } else {
                assertThat(fileThreads(server)).as(model + ": file-pool threads started by STAT").isPositive();
            }
        }
    }

    private static int fileThreads(XferServer server) {
        return server.workerThreads() - Runtime.getRuntime().availableProcessors();
    }

    @Test
    void statDeleteAndInfoAnswerAndRefusalsKeepTheConnection() throws Exception {
        try (XferServer server = XferServer.start(config());
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            TestFile f = server.data().generated(4_096);
            String name = f.path().getFileName().toString();
            assertStatus(() -> c.download(new Request(Op.DOWNLOAD, "netty-auto", "missing.bin", "", 0, 0, Flags.VERIFY_CRC32C, 0)),
                    Status.NOT_FOUND);
            assertStatus(() -> c.download(Request.download("no-such-method", 10, Flags.VERIFY_CRC32C, 0)), Status.BAD_REQUEST);
            assertStatus(() -> c.download(Request.download("netty-auto", 65L << 30, 0, 0)), Status.TOO_LARGE);
            assertThat(new String(c.control(Op.INFO), StandardCharsets.UTF_8)).contains("\"ioModel\":\"" + model + "\"")
                    // Every model is listed, with whether it can run here.
                    .contains("\"direction\":\"io-model\",\"id\":\"netty-io-uring\"", "\"direction\":\"io-model\",\"id\":\"platform\"");
            FileStat s = c.stat(name);
            assertThat(s.exists()).isTrue();
            assertThat(s.size()).isEqualTo(4_096);
            assertThat(c.stat("missing.bin")).isEqualTo(FileStat.ABSENT);
            assertStatus(() -> c.stat("../outside.txt"), Status.FORBIDDEN);
            // A generated file's name is the server's (ImpersonatedTestFileTest); another name is deleted.
            assertStatus(() -> c.delete(name), Status.FORBIDDEN);
            Files.copy(f.path(), f.path().resolveSibling("own.bin"));
            c.delete("own.bin");
            assertThat(c.stat("own.bin").exists()).isFalse();
            assertStatus(() -> c.delete("own.bin"), Status.NOT_FOUND);
            assertStatus(() -> c.control(Op.MEASURE_END), Status.BAD_REQUEST);
            // Every refusal above kept the connection: it still serves.
            assertThat(c.download(generated(100_000)).verified()).isTrue();
        }
    }

    @Test
    void uploadsLandByRenameVerifiedAndBadOnesLeaveNothing() throws Exception {
        DataDirectory local = new DataDirectory(clientDir);
        try (XferServer server = XferServer.start(config().withMaxUpload(16L << 20));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            // 0, a byte, a small file, several MiB (many reads and pool writes), each then downloaded verified.
            for (long size : new long[] {0, 1, 50 * 1024, 8L * 1024 * 1024 + 17}) {
                TestFile body = local.generated(size);
                String name = "up-" + size + ".bin";
                UploadResult r = c.upload(Request.upload("stream", name, 0, 0, Flags.VERIFY_CRC32C, 0), body);
                assertThat(r.verified()).as("upload of " + size).isTrue();
                assertThat(r.checksumReread()).as("checksummed as the bytes passed").isFalse();
                assertThat(UploadIntegrationTest.crc32c(dataDir.resolve(name))).isEqualTo(body.crc32c());
                DownloadResult d = c.download(new Request(Op.DOWNLOAD, "netty-auto", name, "", 0, 0, Flags.VERIFY_CRC32C, 0));
                assertThat(d.verified()).isTrue();
                assertThat(d.expectedCrc32c()).isEqualTo(body.crc32c());
            }
            // A body that is not what was declared: refused, the old file untouched, no temp file; the connection goes on.
            TestFile real = local.generated(100_000);
            TestFile lying = new TestFile(real.path(), real.size(), real.crc32c() ^ 1);
            assertStatus(() -> c.upload(Request.upload("stream", "up-1.bin", 0, 0, Flags.VERIFY_CRC32C, 0), lying), Status.VERIFY_FAILED);
            assertThat(Files.size(dataDir.resolve("up-1.bin"))).isEqualTo(1);
            assertStatus(() -> c.upload(Request.upload("stream", "big.bin", 0, 0, 0, 0), local.generated(17L << 20)), Status.TOO_LARGE);
            assertStatus(() -> c.upload(Request.upload("no-such-receiver", "x.bin", 0, 0, 0, 0), real), Status.BAD_REQUEST);
            assertStatus(() -> c.upload(Request.upload("stream", "../outside.bin", 0, 0, 0, 0), real), Status.FORBIDDEN);
            assertThat(c.upload(Request.upload("stream", "after.bin", 0, 0, Flags.VERIFY_CRC32C | Flags.FSYNC, 0), real)
                    .verified()).isTrue();
            assertThat(tempFiles()).isEmpty();
        }
    }

    private List<String> tempFiles() {
        return TempFileNames.in(dataDir);
    }

    /**
     * Bodies sent right behind their headers, three requests in one write: each is already whole when its header is
     * decoded, so one pool task opens, writes, verifies and places it and ready and result leave together. The answers
     * are the chunked way's: placed and verified, VERIFY_FAILED with nothing left behind, an empty body placed; the
     * stream stays in step, so the connection goes on.
     */
    @Test
    void bodiesSentBehindTheirHeadersArePlacedWholeAndTheConnectionGoesOn() throws Exception {
        WholeBodyUploads uploads = WholeBodyUploads.of(21);
        try (XferServer server = XferServer.start(config());
             SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            uploads.send(s, "stream", "stream");
            uploads.assertAnsweredAndPlaced(s, dataDir);
            assertThat(tempFiles()).isEmpty();
            // Still in step: the next request on the same connection is served, and the upload's recorded CRC32C
            // matches its bytes.
            s.write(RequestCodec.encode(new Request(Op.DOWNLOAD, "netty-auto", "whole-a.bin", "", 0, 0, Flags.VERIFY_CRC32C, 0)));
            assertThat(ResponseCodec.readDownloadHeader(s).crc32c()).isEqualTo(WholeBodyUploads.crc32c(uploads.a()));
        }
    }

    @Test
    void aClientGoneMidUploadLeavesNoTempFile() throws Exception {
        try (CapturedLog log = CapturedLog.of("io.xferbench.server", Level.FINE);
             XferServer server = XferServer.start(config())) {
            try (SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
                s.write(RequestCodec.encode(Request.upload("stream", "half.bin", 1 << 20, 0, 0, 0)));
                ByteBuffer ready = ByteBuffer.allocate(64);
                s.read(ready);
                s.write(ByteBuffer.allocate(300_000));
            }
            MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0, "abandoned upload's connection closed");
            MalformedRequestStormTest.waitUntil(() -> tempFiles().isEmpty(), "temp file removed");
            assertThat(dataDir.resolve("half.bin")).doesNotExist();
            // Resuming reads after the client's FIN (epoll_ctl: ENOENT) was once reported as an internal error.
            assertThat(log.messages()).as("a client gone is not the server's failure").noneMatch(m -> m.contains("internal error"));
        }
    }

    @Test
    void prepareAndTheMeasurementWindowAnswerAsOnTheThreadedModels() throws Exception {
        try (XferServer server = XferServer.start(config());
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            Prepared p = c.prepare(Request.download("netty-auto", 100_000, Flags.CACHE_WARM, 0));
            assertThat(p.residencyPermille()).as("warmed").isGreaterThanOrEqualTo(950);
            assertThat(new String(c.control(Op.MEASURE_BEGIN), StandardCharsets.UTF_8)).isEqualTo("{}");
            assertThat(server.openMeasurementWindows()).isEqualTo(1);
            assertThat(c.download(generated(100_000)).verified()).isTrue();
            MeasurementReport r = ProtocolJson.read(c.control(Op.MEASURE_END), MeasurementReport.class);
            assertThat(r.process()).isEqualTo(MeasurementReport.SERVER);
            assertThat(r.cpuUserSeconds() + r.cpuSystemSeconds()).as("CPU of the window").isPositive();
            assertThat(server.openMeasurementWindows()).isZero();
            // A window left open by a client that goes away is closed with its connection.
            c.control(Op.MEASURE_BEGIN);
        }
    }

    @Test
    void httpGetAndHeadServeFilesWithTheirChecksumOnAKeptAliveConnection() throws Exception {
        try (XferServer server = XferServer.start(config());
             java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
            TestFile f = server.data().generated(300_001);
            String name = f.path().getFileName().toString();
            var out = s.getOutputStream();
            var in = s.getInputStream();
            // Two requests in one write: pipelined, answered in order.
            out.write(("GET /" + name + " HTTP/1.1\r\nHost: x\r\n\r\nHEAD /" + name + " HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            HttpServingTest.Response get = HttpServingTest.read(in, false);
            assertThat(get.status()).isEqualTo(200);
            assertThat(get.body()).hasSize(300_001);
            assertThat(get.crc()).isEqualTo(f.crc32c());
            assertThat(get.headers().get("x-xferbench-crc32c")).isEqualTo(String.format("%08x", f.crc32c()));
            assertThat(get.headers().get("x-xferbench-method")).as("past 128 KiB").isEqualTo("netty-file-region");
            HttpServingTest.Response head = HttpServingTest.read(in, true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.headers().get("content-length")).isEqualTo("300001");
            out.write("HEAD /missing.bin HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(HttpServingTest.read(in, true).status()).isEqualTo(404);
            out.write("DELETE /x HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(HttpServingTest.read(in, false).status()).isEqualTo(405);
            out.write(("GET /" + name + "?method=nope HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(HttpServingTest.read(in, false).status()).isEqualTo(400);
            // A small body: io_uring sends it by sendfile from its loop (a region would splice it through a pipe on
            // io-wq workers); epoll sends every body as a region, which is sendfile.
            TestFile small = server.data().generated(50_000);
            out.write(("GET /" + small.path().getFileName() + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            HttpServingTest.Response smallGet = HttpServingTest.read(in, false);
            assertThat(smallGet.body()).hasSize(50_000);
            assertThat(smallGet.crc()).isEqualTo(small.crc32c());
            assertThat(smallGet.headers().get("x-xferbench-method"))
                    .isEqualTo(model.startsWith("netty-io-uring") ? "loop-sendfile" : "netty-file-region");
            out.write(("GET /" + name + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(HttpServingTest.read(in, false).crc()).isEqualTo(f.crc32c());
            assertThat(in.read()).as("closed after Connection: close").isEqualTo(-1);
        }
    }

    @Test
    void aMalformedFrameOrBadHttpIsAnsweredAndEndsTheConnection() throws Exception {
        try (XferServer server = XferServer.start(config())) {
            try (SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
                s.write(ByteBuffer.wrap("GET / HTTP/2.0\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
                assertThat(readToEnd(s)).startsWith("HTTP/1.1 505");
            }
            try (SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
                s.write(ByteBuffer.wrap(("GET /" + "a".repeat(9000) + " HTTP/1.1\r\n").getBytes(StandardCharsets.US_ASCII)));
                assertThat(readToEnd(s)).startsWith("HTTP/1.1 431");
            }
            try (SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
                s.write(ByteBuffer.wrap(new byte[] {'X', 'F', 'B', '2', 0, 4, 1, 2, 3, 4}));
                assertThat(readToEnd(s)).contains("bad magic");
            }
            MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0, "refused connections closed");
        }
    }

    private static String readToEnd(SocketChannel s) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(64 * 1024);
        while (s.read(b) >= 0) {
            if (!b.hasRemaining()) {
                break;
            }
        }
        return new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void manyHeldClientsAllVerifyConcurrentlyOnABoundedNumberOfThreads() throws Exception {
        int clients = 200;
        int before = ManagementFactory.getThreadMXBean().getThreadCount();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        List<XferConnection> held = new ArrayList<>();
        try (XferServer server = XferServer.start(config().withMaxConnections(clients))) {
            for (int i = 0; i < clients; i++) {
                XferConnection c = XferConnection.open("127.0.0.1", server.port(), "");
                c.control(Op.INFO);
                held.add(c);
            }
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                XferConnection c = held.get(i);
                long size = 1 + 11_000L * i;
                results.add(pool.submit(() -> {
                    int verified = 0;
                    for (int r = 0; r < 3; r++) {
                        verified += c.download(generated(size)).verified() ? 1 : 0;
                    }
                    return verified;
                }));
            }
            int verified = 0;
            for (Future<Integer> f : results) {
                verified += f.get();
            }
            assertThat(verified).isEqualTo(clients * 3);
            // Platform threads of the whole JVM: the server's loops and file pool, the client's carriers, a few of the
            // JDK's; a thread per connection would be 200 more.
            int added = ManagementFactory.getThreadMXBean().getThreadCount() - before;
            assertThat(added).as("threads added with " + clients + " connections served")
                    .isLessThanOrEqualTo(Runtime.getRuntime().availableProcessors() * 2 + ServerModels.DEFAULT_POOL + 16);
        } finally {
            for (XferConnection c : held) {
                c.close();
            }
            pool.shutdown();
        }
    }

    @Test
    void clientsOverTheLimitAreToldBusyAndTheSlotIsFreedOnClose() throws Exception {
        int limit = 4;
        try (XferServer server = XferServer.start(config().withMaxConnections(limit))) {
            List<XferConnection> held = new ArrayList<>();
            try {
                for (int i = 0; i < limit; i++) {
                    XferConnection c = XferConnection.open("127.0.0.1", server.port(), "");
                    c.control(Op.INFO);
                    held.add(c);
                }
                try (XferConnection extra = XferConnection.open("127.0.0.1", server.port(), "")) {
                    assertThatThrownBy(() -> extra.download(generated(1_000)))
                            .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY))
                            .hasMessageContaining("--max-connections");
                }
            } finally {
                for (XferConnection c : held) {
                    c.close();
                }
            }
            MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0, "held connections closed");
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThat(c.download(generated(1_000)).verified()).isTrue();
            }
        }
    }

    @Test
    @Timeout(60)
    void aReaderThatStallsIsCutOffAtTheTransferDeadline() throws Exception {
        ServerConfig base = config();
        long size = 64L << 20;
        // idle 1 s + 64 MiB at 64 MiB/s: a 2 s budget for the whole download.
        ServerConfig stalling = new ServerConfig(base.dataDir(), base.bind(), base.port(), base.maxConnections(), base.token(),
                base.maxGenerated(), base.maxUpload(), Duration.ofSeconds(1), 64L << 20, base.shutdownGrace(),
                base.maxBufferMemory(), model, base.corkResponses(), base.tls());
        try (XferServer server = XferServer.start(stalling);
             SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            s.socket().setReceiveBufferSize(64 * 1024);
            server.data().generated(size);
            s.write(RequestCodec.encode(Request.download("netty-auto", size, 0, 0)));
            Thread.sleep(4_000); // stalled past the budget, with the socket buffers full
            long received = 0;
            ByteBuffer sink = ByteBuffer.allocate(1 << 20);
            long n;
            while ((n = s.read(sink.clear())) >= 0) {
                received += n;
            }
            assertThat(received).as("cut off before the whole body").isLessThan(size);
            MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0, "stalled connection closed");
        }
    }

    /**
     * The idle deadline moves with every request (its check waits on the loop's timer and, firing early, waits again
     * for the rest): a connection busy past several timeouts stays open, and once silent it is closed after one.
     */
    @Test
    @Timeout(30)
    void theIdleDeadlineMovesWithEachRequestAndStillClosesASilentConnection() throws Exception {
        try (XferServer server = XferServer.start(config().withIdleTimeout(Duration.ofSeconds(1)));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            for (int i = 0; i < 8; i++) {
                assertThat(c.stat("absent.bin").exists()).isFalse();
                Thread.sleep(400);
            }
            long silentFrom = System.nanoTime();
            assertThatThrownBy(() -> {
                while (System.nanoTime() - silentFrom < Duration.ofSeconds(10).toNanos()) {
                    Thread.sleep(1_500);
                    c.stat("absent.bin");
                }
            }).as("closed once silent for its idle timeout").isInstanceOf(IOException.class);
        }
    }

    @Test
    @Timeout(30)
    void anIdleConnectionIsClosedAfterTheIdleTimeoutAndShutdownClosesIdleOnesAtOnce() throws Exception {
        XferServer server = XferServer.start(config().withIdleTimeout(Duration.ofSeconds(1)).withShutdownGrace(Duration.ofSeconds(30)));
        try (SocketChannel silent = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            // Half a header, then nothing: the idle timeout covers a header that never completes.
            silent.write(ByteBuffer.wrap(new byte[] {'X', 'F'}));
            long start = System.nanoTime();
            assertThat(silent.read(ByteBuffer.allocate(16))).as("closed by the server").isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }
        XferConnection idle = XferConnection.open("127.0.0.1", server.port(), "");
        idle.control(Op.INFO);
        long start = System.nanoTime();
        server.close();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("an idle connection does not wait out the grace")
                .isLessThan(Duration.ofSeconds(10));
        assertThatThrownBy(() -> idle.control(Op.INFO)).isInstanceOf(IOException.class);
        idle.close();
    }
}
