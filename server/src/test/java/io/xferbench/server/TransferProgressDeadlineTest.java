package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.CapturedLog;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.loop.EventLoopDeadline;
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
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A transfer's deadline comes from the body's own length (a named file's, whatever the request's size says), and a
 * body no byte of which moves for the idle timeout is closed long before that deadline, on every I/O model. The
 * readers are paced by sleeps between reads of a small receive buffer, so the server's send outlasts the idle timeout
 * whatever the machine's speed; times are asserted only as bounds the server cannot beat.
 */
@Timeout(120)
class TransferProgressDeadlineTest {
    /** Long enough that a loaded CI machine's scheduling pause does not look like a stall of a paced reader. */
    private static final Duration IDLE = Duration.ofSeconds(2);
    private static final int CHUNK = 64 * 1024;
    /** The client's receive buffer: small, so the body waits in the server while the reader sleeps. */
    private static final int RECEIVE_BUFFER = 64 * 1024;

    @TempDir
    Path dataDir;

    static Stream<String> models() {
        return IoModelTest.everyModel();
    }

    /**
     * A named file's DOWNLOAD with size 0, read steadily at about 6 MiB/s (six times --min-rate) for longer than the
     * idle timeout: the whole file arrives and verifies. The old budget was the idle timeout plus 0 / --min-rate.
     */
    @ParameterizedTest
    @MethodSource("models")
    void aNamedDownloadReadSteadilyPastTheIdleTimeoutCompletes(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        int size = 24 << 20;
        long crc = writeFile("named.bin", size);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withIdleTimeout(IDLE));
             SocketChannel c = connect(server.port())) {
            long start = System.nanoTime();
            Frames.writeFully(c, RequestCodec.encode(Request.download("transfer-to", 0, 0, 0).withName("named.bin")));
            DownloadHeader header = ResponseCodec.readDownloadHeader(c);
            assertThat(header.length()).isEqualTo(size);
            CRC32C body = new CRC32C();
            ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
            long left = size;
            while (left > 0) {
                chunk.clear().limit((int) Math.min(CHUNK, left));
                Frames.readFully(c, chunk);
                body.update(chunk.flip());
                left -= chunk.limit();
                Thread.sleep(10);
            }
            ResponseCodec.readTrailer(c);
            assertThat(System.nanoTime() - start).as(model + ": the download outlasted the idle timeout")
                    .isGreaterThan(IDLE.toNanos());
            assertThat(body.getValue()).as(model).isEqualTo(crc);
            assertThat(Integer.toUnsignedLong(header.crc32c())).as(model).isEqualTo(crc);
        }
    }

    /**
     * A named file's DOWNLOAD claiming size 2^40, read slowly but never standing still: cut at the deadline its real
     * length gives (idle timeout + 32 MiB / 8 MiB/s = 6 s), not at the day 2^40 bytes would give, and as a deadline,
     * not as a stall.
     */
    @ParameterizedTest
    @MethodSource("models")
    void aDownloadClaimingAHugeSizeHasTheDeadlineOfItsFilesLength(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        int size = 32 << 20;
        long minRate = 8 << 20;
        Duration budget = IDLE.plusSeconds(size / minRate);
        writeFile("named.bin", size);
        try (CapturedLog threaded = CapturedLog.of(ConnectionRegistry.class.getName());
             CapturedLog loops = CapturedLog.of(EventLoopDeadline.class.getName());
             XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withIdleTimeout(IDLE)
                     .withMinRate(minRate));
             SocketChannel c = connect(server.port())) {
            long start = System.nanoTime();
            Frames.writeFully(c, RequestCodec.encode(Request.download("transfer-to", 1L << 40, 0, 0).withName("named.bin")));
            assertThat(ResponseCodec.readDownloadHeader(c).length()).isEqualTo(size);
            ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
            long read = 0;
            long waited = 0;
            // 64 KiB per 100 ms: a byte moves every look, and a small part of the body is read by the deadline.
            while (messages(threaded, loops, "deadline").isEmpty() && waited < TimeUnit.SECONDS.toNanos(30)) {
                chunk.clear();
                int n = c.read(chunk);
                assertThat(n).as(model + ": the body ended before the deadline was logged").isPositive();
                read += n;
                Thread.sleep(100);
                waited = System.nanoTime() - start;
            }
            assertThat(messages(threaded, loops, "deadline")).as(model + ": closed after its transfer deadline").hasSize(1);
            assertThat(waited).as(model + ": not before its file's budget").isGreaterThanOrEqualTo(budget.toNanos());
            assertThat(messages(threaded, loops, "moved")).as(model + ": a body that moved is no stall").isEmpty();
            // What the server had sent before the cut, then the end: far from the whole body.
            while (true) {
                chunk.clear();
                int n;
                try {
                    n = c.read(chunk);
                } catch (IOException reset) {
                    break;
                }
                if (n < 0) {
                    break;
                }
                read += n;
            }
            assertThat(read).as(model + ": cut short").isLessThan(size);
        }
    }

    /**
     * An UPLOAD declaring 256 MiB (a budget of over four minutes), then silence, on a server of one connection: closed
     * about the idle timeout after its last byte moved, its temp file removed and its slot free for the next client.
     */
    @ParameterizedTest
    @MethodSource("models")
    void anUploadWhoseBodyNeverComesIsClosedAfterTheIdleTimeout(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        try (CapturedLog threaded = CapturedLog.of(ConnectionRegistry.class.getName());
             CapturedLog loops = CapturedLog.of(EventLoopDeadline.class.getName());
             XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withIdleTimeout(IDLE)
                     .withMaxConnections(1));
             SocketChannel c = connect(server.port())) {
            long start = System.nanoTime();
            Frames.writeFully(c, RequestCodec.encode(Request.upload("stream", "silent.bin", 256L << 20, 0, 0, 0)));
            assertThat(ResponseCodec.readUploadReady(c)).isEqualTo(256L << 20);
            assertThat(TempFileNames.in(dataDir)).as(model + ": the upload's temp file").hasSize(1);
            c.socket().setSoTimeout(20_000);
            InputStream in = c.socket().getInputStream();
            try {
                while (in.read() >= 0) {
                    // An error frame, if one gets out before the end.
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError(model + ": the silent upload was still open after 20 s", e);
            } catch (IOException reset) {
                // Closed.
            }
            assertThat(System.nanoTime() - start).as(model + ": not before a whole idle timeout").isGreaterThanOrEqualTo(IDLE.toNanos());
            assertThat(messages(threaded, loops, "moved")).as(model + ": closed as a stall").hasSize(1);
            assertThat(served(server.port())).as(model + ": the slot is free again").isTrue();
            assertThat(tempFilesGone()).as(model + ": temp file removed").isTrue();
            assertThat(Files.exists(dataDir.resolve("silent.bin"))).isFalse();
        }
    }

    /**
     * A client that pipelines its next request and then reads nothing: its request waits in the server's receive queue,
     * which alone would look like a server behind on its reading, but the body the server sent waits unacknowledged
     * for the client, so the stall is the client's and the connection closes after the idle timeout, long before its
     * transfer deadline (idle timeout + 32 MiB at 1 MiB/s).
     */
    @ParameterizedTest
    @MethodSource("models")
    void aClientThatPipelinesAndStopsReadingIsStillAStall(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        writeFile("named.bin", 32 << 20);
        try (CapturedLog threaded = CapturedLog.of(ConnectionRegistry.class.getName());
             CapturedLog loops = CapturedLog.of(EventLoopDeadline.class.getName());
             XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withIdleTimeout(IDLE)
                     .withMinRate(1 << 20));
             SocketChannel c = connect(server.port())) {
            Frames.writeFully(c, RequestCodec.encode(Request.download("transfer-to", 0, 0, 0).withName("named.bin")));
            ResponseCodec.readDownloadHeader(c);
            // Sent once the body is under way, so a threaded server, busy sending, leaves it in its receive queue.
            Frames.writeFully(c, RequestCodec.encode(Request.onFile(Op.STAT, "named.bin")));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (messages(threaded, loops, "moved").isEmpty() && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            assertThat(messages(threaded, loops, "moved")).as(model + ": closed as a stall").hasSize(1);
            assertThat(messages(threaded, loops, "deadline")).as(model + ": not at the transfer deadline").isEmpty();
        }
    }

    private SocketChannel connect(int port) throws IOException {
        SocketChannel c = SocketChannel.open();
        c.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER);
        c.connect(new InetSocketAddress("127.0.0.1", port));
        return c;
    }

    private long writeFile(String name, int size) throws IOException {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        Files.write(dataDir.resolve(name), bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }

    private static List<String> messages(CapturedLog threaded, CapturedLog loops, String word) {
        return Stream.concat(threaded.messages().stream(), loops.messages().stream()).filter(m -> m.contains(word)).toList();
    }

    /**
     * Whether a new client is served within 10 s: the closed connection's slot is given back when its thread or loop has
     * cleaned up, which may come a moment after its client saw the close.
     */
    private static boolean served(int port) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (XferConnection next = XferConnection.open("127.0.0.1", port, "")) {
                next.control(Op.INFO);
                return true;
            } catch (RemoteException e) {
                if (e.status() != Status.BUSY || System.nanoTime() - until > 0) {
                    throw e;
                }
            }
            Thread.sleep(100);
        }
    }

    /** Whether the temp file is gone within 10 s (an event loop removes it on its file pool after the close). */
    private boolean tempFilesGone() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!TempFileNames.in(dataDir).isEmpty()) {
            if (System.nanoTime() - until > 0) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }
}
