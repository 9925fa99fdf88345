package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.testing.CapturedLog;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.InternalFaultProbe;
import io.xferbench.server.loop.EventLoopDeadline;
import io.xferbench.server.loop.FileWorkBatches;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A blocking method's send on an event loop's file pool ({@link EventLoopBody}): it ends with its connection however it
 * blocks, and it runs as a task of its own, so a client that stops reading holds up no other connection.
 */
@Timeout(180)
class EventLoopPoolSendTest {
    private static final Duration IDLE = Duration.ofSeconds(1);
    /** Far more than a loopback socket's buffers hold: a client that stops reading leaves the send blocked. */
    private static final long LARGE = 32L << 20;
    private static final long SMALL = 1L << 20;

    @TempDir
    Path dataDir;

    @AfterEach
    void noHook() {
        InternalFaultProbe.hook = null;
    }

    static Stream<Arguments> stuckCases() {
        return Stream.of("netty-epoll", "netty-io-uring").flatMap(model -> Stream.of("transfer-to", "sendfile", "io-uring-read-send")
                .map(method -> Arguments.of(model, method)));
    }

    /**
     * As many clients as the file pool has threads ask a blocking method for a large file and stop reading: the idle
     * timeout closes each, the client sees the end (not a connection left open by the send's own descriptor), and the
     * pool's threads are free again (a next download, which needs one, is served).
     */
    @ParameterizedTest
    @MethodSource("stuckCases")
    void aBlockedPoolSendEndsWithItsConnectionAndFreesItsThread(String model, String method) throws Exception {
        IoModelTest.assumeModelRuns(model);
        MethodAssumptions.assumeAvailable(method, DownloadMethods.byId(method).orElseThrow().availability());
        try (CapturedLog loops = CapturedLog.of(EventLoopDeadline.class.getName());
             XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withIdleTimeout(IDLE))) {
            server.data().generated(LARGE);
            server.data().generated(SMALL);
            List<SocketChannel> stuck = new ArrayList<>();
            try {
                for (int i = 0; i < ServerModels.DEFAULT_POOL; i++) {
                    SocketChannel c = connect(server.port());
                    stuck.add(c);
                    Frames.writeFully(c, RequestCodec.encode(Request.download(method, LARGE, 0, 0)));
                    assertThat(ResponseCodec.readDownloadHeader(c).length()).isEqualTo(LARGE);
                }
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (closes(loops) < stuck.size()) {
                    assertThat(System.nanoTime() - until).as(model + " " + method + ": the server closed each stalled client").isNegative();
                    Thread.sleep(50);
                }
                for (SocketChannel c : stuck) {
                    assertThat(drainedToEnd(c)).as(model + " " + method + ": cut short").isLessThan(LARGE);
                }
            } finally {
                for (SocketChannel c : stuck) {
                    c.close();
                }
            }
            CompletableFuture<Boolean> next = CompletableFuture.supplyAsync(() -> {
                try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                    return c.download(Request.download(method, SMALL, Flags.VERIFY_CRC32C, 0)).verified();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try {
                assertThat(next.get(30, TimeUnit.SECONDS)).as(model + " " + method + ": the next download").isTrue();
            } catch (TimeoutException e) {
                throw new AssertionError(model + " " + method + ": no pool thread served the next download", e);
            }
        }
    }

    /**
     * Clients whose requests reach a loop in the same turn as a client's that never reads: each send is a pool task of
     * its own, so theirs complete while the other's is blocked (its connection is closed only by a long idle
     * timeout). The loops are held at a blocker's open meanwhile, so that the requests all arrive in one turn.
     */
    @ParameterizedTest
    @ValueSource(strings = {"netty-epoll-inline", "netty-io-uring-inline"})
    void aClientThatStopsReadingHoldsUpNoOtherSend(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Files.write(dataDir.resolve("blocker.bin"), new byte[1]);
        int loopCount = Runtime.getRuntime().availableProcessors();
        CountDownLatch held = new CountDownLatch(loopCount);
        CountDownLatch release = new CountDownLatch(1);
        try (XferServer server = ProbedSeams.start(ServerConfig.loopback(dataDir).withIoModel(model).withIdleTimeout(Duration.ofSeconds(60)))) {
            server.data().generated(LARGE);
            server.data().generated(SMALL);
            InternalFaultProbe.hook = (point, name) -> {
                if (point == InternalFaultProbe.Point.FILE_WORK && name.equals("blocker.bin") && release.getCount() > 0) {
                    held.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            List<SocketChannel> all = new ArrayList<>();
            try {
                // One blocker per loop (connections are handed to the loops in turn), each held at its open.
                for (int i = 0; i < loopCount; i++) {
                    SocketChannel blocker = connect(server.port());
                    all.add(blocker);
                    Frames.writeFully(blocker, RequestCodec.encode(Request.download("stream", 0, 0, 0).withName("blocker.bin")));
                }
                assertThat(held.await(30, TimeUnit.SECONDS)).as("every loop held").isTrue();
                SocketChannel silent = connect(server.port());
                all.add(silent);
                List<SocketChannel> readers = new ArrayList<>();
                for (int i = 0; i < FileWorkBatches.MAX_BATCH; i++) {
                    SocketChannel c = connect(server.port());
                    all.add(c);
                    readers.add(c);
                }
                Frames.writeFully(silent, RequestCodec.encode(Request.download("mmap", LARGE, 0, 0)));
                for (SocketChannel c : readers) {
                    Frames.writeFully(c, RequestCodec.encode(Request.download("mmap", SMALL, 0, 0)));
                }
                release.countDown();
                List<CompletableFuture<Long>> reads = readers.stream().map(c -> CompletableFuture.supplyAsync(() -> readAnswer(c))).toList();
                try {
                    CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError(model + ": a send waited behind the silent client's", e);
                }
                for (CompletableFuture<Long> r : reads) {
                    assertThat(r.get()).isEqualTo(SMALL);
                }
            } finally {
                release.countDown();
                for (SocketChannel c : all) {
                    c.close();
                }
            }
        }
    }

    private static long readAnswer(SocketChannel c) {
        try {
            DownloadHeader header = ResponseCodec.readDownloadHeader(c);
            ByteBuffer body = ByteBuffer.allocate((int) header.length());
            Frames.readFully(c, body);
            ResponseCodec.readTrailer(c);
            return header.length();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long closes(CapturedLog loops) {
        return loops.messages().stream().filter(m -> m.contains("closed")).count();
    }

    /** Reads to the end (or a reset); what was still on the way counts. Fails if the connection stays open. */
    private static long drainedToEnd(SocketChannel c) throws IOException {
        c.socket().setSoTimeout(20_000);
        InputStream in = c.socket().getInputStream();
        byte[] buf = new byte[64 * 1024];
        long read = 0;
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                read += n;
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("still open 20 s after the server closed it", e);
        } catch (IOException reset) {
            // Closed.
        }
        return read;
    }

    private static SocketChannel connect(int port) throws IOException {
        SocketChannel c = SocketChannel.open();
        c.setOption(StandardSocketOptions.SO_RCVBUF, 64 * 1024);
        c.connect(new InetSocketAddress("127.0.0.1", port));
        return c;
    }
}
