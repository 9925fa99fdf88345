package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A client that sends its request and then shuts down its side (FIN, as {@code printf ... | nc -N} does) still gets
 * the whole answer from every model, and a request the FIN cut short is answered BAD_REQUEST, not dropped.
 */
@Timeout(60)
class HalfCloseTest {
    private static final byte[] CONTENT = "half-closed clients are clients too\n".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void everyRequestBeforeTheFinIsAnswered(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Files.write(dataDir.resolve("a.txt"), CONTENT);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model))) {
            int port = server.port();
            try (SocketChannel ch = sendAndShutDown(port, RequestCodec.encode(Request.control(Op.INFO)))) {
                assertThat(new String(ResponseCodec.readJson(ch), StandardCharsets.UTF_8)).as("INFO").contains("\"server\":\"xferbench\"");
            }
            try (SocketChannel ch = sendAndShutDown(port, RequestCodec.encode(Request.onFile(Op.STAT, "a.txt")))) {
                FileStat stat = ResponseCodec.readStat(ch);
                assertThat(stat.exists()).isTrue();
                assertThat(stat.size()).isEqualTo(CONTENT.length);
            }
            Request get = new Request(Op.DOWNLOAD, "transfer-to", "a.txt", "", 0, 0, Flags.VERIFY_CRC32C, 0);
            try (SocketChannel ch = sendAndShutDown(port, RequestCodec.encode(get))) {
                assertThat(ResponseCodec.readDownloadHeader(ch).length()).isEqualTo(CONTENT.length);
                ByteBuffer body = ByteBuffer.allocate(CONTENT.length);
                while (body.hasRemaining() && ch.read(body) > 0) {
                    // until the whole body is here
                }
                assertThat(body.array()).isEqualTo(CONTENT);
                assertThat(ResponseCodec.readTrailer(ch).status()).isEqualTo(Status.OK);
            }
            CRC32C crc = new CRC32C();
            crc.update(CONTENT);
            Request put = Request.upload("stream", "up.txt", CONTENT.length, (int) crc.getValue(), Flags.VERIFY_CRC32C, 0);
            try (SocketChannel ch = sendAndShutDown(port, RequestCodec.encode(put), ByteBuffer.wrap(CONTENT))) {
                assertThat(ResponseCodec.readUploadReady(ch)).isEqualTo(CONTENT.length);
                UploadReport report = ResponseCodec.readUploadResult(ch);
                assertThat(report.bytes()).isEqualTo(CONTENT.length);
                assertThat(report.crc32c()).isEqualTo((int) crc.getValue());
            }
            assertThat(dataDir.resolve("up.txt")).hasBinaryContent(CONTENT);
            ByteBuffer whole = RequestCodec.encode(Request.control(Op.INFO));
            try (SocketChannel ch = sendAndShutDown(port, whole.limit(6))) {
                assertThatThrownBy(() -> ResponseCodec.readOk(ch)).as("a frame cut short by the FIN")
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST));
            }
            byte[] http = "GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            try (SocketChannel ch = sendAndShutDown(port, ByteBuffer.wrap(http))) {
                String answer = new String(readToEnd(ch), StandardCharsets.ISO_8859_1);
                assertThat(answer).startsWith("HTTP/1.1 200").endsWith(new String(CONTENT, StandardCharsets.ISO_8859_1));
            }
        }
    }

    /**
     * A body larger than the event loops hold before they pause reading, then the FIN: the FIN arrives while reading
     * is paused, and resuming it afterwards must not close the connection before the upload is answered (on epoll it
     * did: Netty's resumed read on a socket whose input had ended failed with epoll_ctl ENOENT and closed it).
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void aLargeUploadEndedByTheFinIsStoredAndAnswered(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        byte[] body = new byte[2 << 20];
        new java.util.Random(11).nextBytes(body);
        CRC32C crc = new CRC32C();
        crc.update(body);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model))) {
            for (int round = 0; round < 3; round++) {
                String name = "big-" + round + ".bin";
                Request put = Request.upload("stream", name, body.length, (int) crc.getValue(), Flags.VERIFY_CRC32C, 0);
                try (SocketChannel ch = sendAndShutDown(server.port(), RequestCodec.encode(put), ByteBuffer.wrap(body))) {
                    assertThat(ResponseCodec.readUploadReady(ch)).as(model).isEqualTo(body.length);
                    UploadReport report = ResponseCodec.readUploadResult(ch);
                    assertThat(report.bytes()).as(model).isEqualTo(body.length);
                }
                assertThat(dataDir.resolve(name)).as(model).hasBinaryContent(body);
            }
        }
    }

    private static SocketChannel sendAndShutDown(int port, ByteBuffer... parts) throws IOException {
        SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
        for (ByteBuffer part : parts) {
            while (part.hasRemaining()) {
                ch.write(part);
            }
        }
        ch.shutdownOutput();
        return ch;
    }

    private static byte[] readToEnd(SocketChannel ch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(4096);
        while (ch.read(b.clear()) > 0) {
            out.write(b.array(), 0, b.position());
        }
        return out.toByteArray();
    }
}
