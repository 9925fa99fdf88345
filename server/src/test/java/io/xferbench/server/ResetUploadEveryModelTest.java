package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.testing.CapturedLog;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.fault.InternalFaultProbe;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Clients that reset (RST) inside an upload's body are noticed at once on every model, also while an event loop has
 * paused reading because the pool still writes a chunk (held here until the reset is seen): each connection and its
 * --max-connections slot freed and the end logged at INFO while the chunk is held, its temp file removed once the
 * chunk returns; all long before any deadline (the idle timeout is far longer than the waits). On the io_uring models
 * such a reset was not seen until the transfer deadline.
 */
@Timeout(300)
class ResetUploadEveryModelTest {
    private static final int UPLOADS = 20;
    private static final long SIZE = 64 * Sizes.MiB;
    /** A client stops filling the socket here at the latest (a thread model reads on: nothing pauses it). */
    private static final long MAX_SENT = 16 * Sizes.MiB;
    /** Far under the idle timeout: only noticing the reset frees a connection within it. */
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void resetUploadsLeaveNothingBehind(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path data = tmp.resolve("data");
        boolean eventLoop = model.startsWith("netty-");
        ServerConfig config = ServerConfig.loopback(data).withIoModel(model).withIdleTimeout(Duration.ofSeconds(300))
                .withMaxConnections(1);
        try (CapturedLog log = CapturedLog.of("io.xferbench.server");
             XferServer server = ProbedSeams.start(config)) {
            for (int i = 0; i < UPLOADS; i++) {
                String name = "reset-" + i;
                CountDownLatch held = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                InternalFaultProbe.hook = (point, at) -> {
                    if (point == InternalFaultProbe.Point.UPLOAD_CHUNK && at.equals(name)) {
                        held.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                };
                try (SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
                    ch.setOption(StandardSocketOptions.SO_LINGER, 0);
                    Frames.writeFully(ch, RequestCodec.encode(new Request(Op.UPLOAD, "stream", name, "", SIZE, 0,
                            Flags.VERIFY_CRC32C, 0)));
                    ResponseCodec.readUploadReady(ch);
                    Frames.writeFully(ch, ByteBuffer.allocate(64 * 1024));
                    if (eventLoop) {
                        assertThat(held.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("a chunk of %s on the pool", name).isTrue();
                    }
                    fillUntilUnread(ch);
                } // SO_LINGER 0: RST
                try {
                    waitUntil(() -> server.openConnections() == 0, model + ": " + name + "'s connection closed, its chunk still held");
                } finally {
                    release.countDown();
                }
                waitUntil(() -> TempFileNames.in(data).isEmpty(), model + ": " + name + "'s temp file removed");
                assertThat(log.messages()).as("logged").anyMatch(m -> m.contains("upload of " + name + " failed in the body"));
            }
            InternalFaultProbe.hook = null;
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThat(c.stat("reset-0").exists()).as("the one slot is free: answered, not BUSY").isFalse();
            }
        } finally {
            InternalFaultProbe.hook = null;
        }
    }

    /**
     * Writes without blocking until the socket takes no more: the server has stopped reading (an event loop pauses
     * once enough waits for the held chunk), or {@link #MAX_SENT}.
     */
    private static void fillUntilUnread(SocketChannel ch) throws Exception {
        ch.configureBlocking(false);
        ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        for (long sent = 0; sent < MAX_SENT; ) {
            int n = ch.write(chunk.clear());
            if (n == 0) {
                return;
            }
            sent += n;
        }
    }

    private static void waitUntil(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT.toSeconds() + " s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
