package io.xferbench.core.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Trailer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server that accepts and then does not answer, or stops in the middle of a body: the client's wait ends after
 * its answer timeout with {@link NoAnswerException}; a body that keeps flowing, however slowly, is not cut.
 */
@Timeout(60)
class AnswerDeadlineTest {
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    /** What the fake server does with its one connection. */
    @FunctionalInterface
    interface Behaviour {
        void serve(SocketChannel client) throws Exception;
    }

    private static void withServer(Behaviour behaviour, ClientSide client) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try (SocketChannel c = server.accept()) {
                    behaviour.serve(c);
                    Thread.sleep(30_000); // hold the connection: what the client sees next is its own deadline
                } catch (Exception ended) {
                    // The test is over.
                }
            });
            try {
                client.run(((InetSocketAddress) server.getLocalAddress()).getPort());
            } finally {
                serving.interrupt();
            }
        }
    }

    @FunctionalInterface
    interface ClientSide {
        void run(int port) throws Exception;
    }

    @Test
    void aSilentServersInfoFailsAfterTheTimeout() throws Exception {
        withServer(c -> { }, port -> {
            try (XferConnection x = XferConnection.open("127.0.0.1", port, "").answerTimeout(TIMEOUT)) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> x.control(Op.INFO)).isInstanceOf(NoAnswerException.class)
                        .hasMessage("no answer from 127.0.0.1:" + port + " within 500ms");
                assertThat((System.nanoTime() - start) / 1e9).isBetween(0.4, 10.0);
            }
        });
    }

    @Test
    void aBodyThatStopsFailsAfterTheTimeoutWithoutAByte() throws Exception {
        withServer(c -> {
            Frames.writeFully(c, ResponseCodec.downloadHeader(new DownloadHeader(1 << 20, 0, -1)));
            Frames.writeFully(c, ByteBuffer.allocate(64 * 1024));
        }, port -> {
            try (XferConnection x = XferConnection.open("127.0.0.1", port, "").answerTimeout(TIMEOUT)) {
                assertThatThrownBy(() -> x.download(Request.download("transfer-to", 1 << 20, 0, 0)))
                        .isInstanceOf(NoAnswerException.class)
                        .hasMessage("the transfer with 127.0.0.1:" + port + " stalled: no byte for 500ms");
            }
        });
    }

    @Test
    void aSlowBodyThatKeepsFlowingIsNotCut() throws Exception {
        int chunks = 8;
        int chunk = 1024;
        withServer(c -> {
            Frames.writeFully(c, ResponseCodec.downloadHeader(new DownloadHeader((long) chunks * chunk, 0, -1)));
            for (int i = 0; i < chunks; i++) {
                Thread.sleep(200); // 1.6 s in all, three times the timeout: only a stall may end it
                Frames.writeFully(c, ByteBuffer.allocate(chunk));
            }
            Frames.writeFully(c, ResponseCodec.trailer(new Trailer(Status.OK, 1, -1, "")));
        }, port -> {
            try (XferConnection x = XferConnection.open("127.0.0.1", port, "").answerTimeout(TIMEOUT)) {
                DownloadResult r = x.download(Request.download("transfer-to", (long) chunks * chunk, 0, 0));
                assertThat(r.bytes()).isEqualTo((long) chunks * chunk);
            } catch (IOException e) {
                throw new AssertionError("a flowing body was cut", e);
            }
        });
    }
}
