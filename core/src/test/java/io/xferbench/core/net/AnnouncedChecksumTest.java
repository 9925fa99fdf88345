package io.xferbench.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.GeneratedChecksums;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Trailer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A download of a generated file is checked against the generator's CRC32C, and the server's announcement against the
 * body: a server that sends the right bytes under a wrong CRC32C fails the download, as it fails a load's.
 */
@Timeout(30)
class AnnouncedChecksumTest {
    private static final int SIZE = 64 * 1024;

    /** One download from a fake server that sends the generated file's bytes (one flipped when asked) under {@code announced}. */
    private static DownloadResult download(int announced, boolean flipAByte) throws Exception {
        ByteBuffer body = ByteBuffer.allocate(SIZE);
        new ContentGenerator(DataDirectory.SEED).fill(body, 0);
        body.flip();
        if (flipAByte) {
            body.put(SIZE / 2, (byte) (body.get(SIZE / 2) ^ 1));
        }
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try (SocketChannel c = server.accept()) {
                    Frames.writeFully(c, ResponseCodec.downloadHeader(new DownloadHeader(SIZE, announced, -1)));
                    Frames.writeFully(c, body);
                    Frames.writeFully(c, ResponseCodec.trailer(Trailer.ok(1, -1)));
                    Thread.sleep(30_000); // hold the connection until the client is done
                } catch (Exception ended) {
                    // The test is over.
                }
            });
            try (XferConnection x = XferConnection.open("127.0.0.1", ((InetSocketAddress) server.getLocalAddress()).getPort(), "")) {
                return x.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0));
            } finally {
                serving.interrupt();
            }
        }
    }

    @Test
    void theRightBytesUnderTheRightChecksumAreVerified() throws Exception {
        DownloadResult r = download(GeneratedChecksums.of(SIZE), false);
        assertThat(r.failure()).isNull();
        assertThat(r.verified()).isTrue();
    }

    @Test
    void theRightBytesUnderAWrongChecksumFailWithWhatWasAnnounced() throws Exception {
        int truth = GeneratedChecksums.of(SIZE);
        DownloadResult r = download(truth ^ 0x10, false);
        assertThat(r.verified()).isFalse();
        assertThat(r.failure()).isEqualTo(String.format("server announced CRC32C %08x, body has %08x", truth ^ 0x10, truth));
    }

    @Test
    void wrongBytesUnderTheRightChecksumAreAMismatchWithTheGenerator() throws Exception {
        DownloadResult r = download(GeneratedChecksums.of(SIZE), true);
        assertThat(r.verified()).isFalse();
        assertThat(r.failure()).startsWith("CRC32C mismatch: received ").endsWith(String.format("expected %08x", GeneratedChecksums.of(SIZE)));
    }
}
