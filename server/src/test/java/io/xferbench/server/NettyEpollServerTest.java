package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.epoll.Epoll;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code netty-epoll} model with the client's own XferConnection: downloads verified at the edge sizes and
 * concurrently, the answers for what it does not serve, the connection limit, the idle timeout and shutdown.
 */
@Timeout(120)
class NettyEpollServerTest {
    private static final String MODEL = "netty-epoll";

    @TempDir
    Path dataDir;
    @TempDir
    Path clientDir;

    @BeforeEach
    void epollAvailable() {
        Assumptions.assumeTrue(Epoll.isAvailable(), () -> "Netty epoll unavailable: " + Epoll.unavailabilityCause());
    }

    private ServerConfig config() {
        return ServerConfig.loopback(dataDir).withIoModel(MODEL);
    }

    private static Request generated(long size) {
        return Request.download("transfer-to", size, Flags.VERIFY_CRC32C, 0);
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
            DownloadResult byName = c.download(new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0));
            assertThat(byName.verified()).isTrue();
            assertThat(byName.bytes()).isEqualTo(12_345);
        }
    }

    @Test
    void statDeleteAndInfoAnswerAndTheUnservedOpsAreRefusedOnALiveConnection() throws Exception {
        try (XferServer server = XferServer.start(config());
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            TestFile f = server.data().generated(4_096);
            String name = f.path().getFileName().toString();
            assertStatus(() -> c.download(new Request(Op.DOWNLOAD, "transfer-to", "missing.bin", "", 0, 0, Flags.VERIFY_CRC32C, 0)),
                    Status.NOT_FOUND);
            assertStatus(() -> c.download(Request.download("no-such-method", 10, Flags.VERIFY_CRC32C, 0)), Status.BAD_REQUEST);
            assertStatus(() -> c.download(Request.download("transfer-to", 65L << 30, 0, 0)), Status.TOO_LARGE);
            assertThat(new String(c.control(Op.INFO), StandardCharsets.UTF_8)).contains("\"ioModel\":\"netty-epoll\"");
            FileStat s = c.stat(name);
            assertThat(s.exists()).isTrue();
            assertThat(s.size()).isEqualTo(4_096);
            assertThat(c.stat("missing.bin")).isEqualTo(FileStat.ABSENT);
            assertStatus(() -> c.stat("../outside.txt"), Status.FORBIDDEN);
            c.delete(name);
            assertThat(c.stat(name).exists()).isFalse();
            assertStatus(() -> c.delete(name), Status.NOT_FOUND);
            TestFile body = new DataDirectory(clientDir).generated(1_000);
            assertThatThrownBy(() -> c.upload(Request.upload("channel-direct", "up.bin", 0, 0, Flags.VERIFY_CRC32C, 0), body))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE))
                    .hasMessageContaining("serves INFO, STAT, DELETE, DOWNLOAD");
            assertStatus(() -> c.control(Op.MEASURE_BEGIN), Status.UNAVAILABLE);
            // Every refusal above kept the connection: it still serves.
            assertThat(c.download(generated(100_000)).verified()).isTrue();
        }
    }

    /**
     * As StatDeleteTest's race, with the file put in place by rename from the test (this model takes no uploads): the
     * download gets the whole old file or a clean NOT_FOUND, never a short body.
     */
    @Test
    void aDeleteRacingADownloadNeverYieldsAShortVerifiedBody() throws Exception {
        TestFile body = new DataDirectory(clientDir).generated(4 << 20);
        int whole = 0;
        int notFound = 0;
        try (XferServer server = XferServer.start(config());
             XferConnection reader = XferConnection.open("127.0.0.1", server.port(), "");
             XferConnection deleter = XferConnection.open("127.0.0.1", server.port(), "");
             ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 40; round++) {
                Path staged = dataDir.resolve(".staged");
                Files.copy(body.path(), staged);
                Files.move(staged, dataDir.resolve("r.bin"), StandardCopyOption.ATOMIC_MOVE);
                Future<DownloadResult> download = pool.submit(() -> {
                    try {
                        return reader.download(new Request(Op.DOWNLOAD, "transfer-to", "r.bin", "", 0, 0, Flags.VERIFY_CRC32C, 0));
                    } catch (RemoteException e) {
                        assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
                        return null;
                    }
                });
                Future<?> delete = pool.submit(() -> {
                    deleter.delete("r.bin");
                    return null;
                });
                DownloadResult d = download.get();
                delete.get();
                if (d == null) {
                    notFound++;
                } else {
                    assertThat(d.bytes()).isEqualTo(body.size());
                    assertThat(d.verified()).as(d.failure()).isTrue();
                    assertThat(d.expectedCrc32c()).isEqualTo(body.crc32c());
                    whole++;
                }
            }
        }
        assertThat(whole + notFound).isEqualTo(40);
    }

    @Test
    void aMalformedFrameOrHttpIsAnsweredAndEndsTheConnection() throws Exception {
        try (XferServer server = XferServer.start(config())) {
            try (SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
                s.write(ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
                assertThat(readToEnd(s)).startsWith("HTTP/1.1 501 Not Implemented").contains("native protocol only");
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
                base.maxBufferMemory(), MODEL);
        try (XferServer server = XferServer.start(stalling);
             SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            s.socket().setReceiveBufferSize(64 * 1024);
            server.data().generated(size);
            s.write(RequestCodec.encode(Request.download("transfer-to", size, 0, 0)));
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
