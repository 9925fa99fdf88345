package io.xferbench.server.thread;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.protocol.DownloadHeader;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.UploadReport;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The thread models read a native request head with one read into a buffer of the connection's, and what arrives
 * past the head is the next consumer's: an upload's receiver or the next request. Nothing may be lost or reordered
 * however the bytes arrive: a request cut at any byte, a head with its body in one segment, several requests in one
 * segment, an upload's body followed by the next request in one segment (for the receivers that never read past their
 * body). The cuts are separate writes with a pause
 * between them, so the server's read mostly sees each part on its own; every answer and stored file is checked.
 */
@Timeout(300)
class ReadAheadTest {
    private static final long SMALL = 1000;
    private static final long LARGER = 3000;
    private static final int PAUSE_MS = 3;
    /** Receivers that may read past their body when more is in the socket (Netty reads into a buffer of its own). */
    private static final Set<String> READ_PAST_THE_BODY = Set.of("epoll-splice", "io-uring");

    @TempDir
    Path dataDir;

    static Stream<String> threadModels() {
        return Stream.of("platform", "virtual", "virtual+pool:2");
    }

    static Stream<Arguments> modelsAndReceivers() {
        return threadModels().flatMap(model -> UploadMethods.all().stream().map(m -> Arguments.of(model, m.id())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("threadModels")
    void aDownloadRequestCutAtAnyByteIsAnswered(String model) throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             SocketChannel s = connect(server)) {
            TestFile file = server.data().generated(SMALL);
            byte[] request = bytes(RequestCodec.encode(Request.download("transfer-to", SMALL, 0, 0)));
            for (int cut = 1; cut < request.length; cut++) {
                send(s, request, cut);
                assertDownload(s, file);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("threadModels")
    void requestsInOneSegmentAreAnsweredInOrder(String model) throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             SocketChannel s = connect(server)) {
            TestFile small = server.data().generated(SMALL);
            TestFile larger = server.data().generated(LARGER);
            byte[] a = bytes(RequestCodec.encode(Request.download("transfer-to", SMALL, 0, 0)));
            byte[] b = bytes(RequestCodec.encode(Request.download("channel-heap", LARGER, 0, 0)));
            // Three whole requests in one segment.
            send(s, concat(a, b, a));
            assertDownload(s, small);
            assertDownload(s, larger);
            assertDownload(s, small);
            // A whole request and the start of the next one, whose rest comes later, at every cut of the second.
            for (int cut = 1; cut < b.length; cut++) {
                send(s, concat(a, b), a.length + cut);
                assertDownload(s, small);
                assertDownload(s, larger);
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modelsAndReceivers")
    void everyReceiverTakesTheBodyReadAheadFirst(String model, String method) throws Exception {
        ReceiverMethod receiver = UploadMethods.byId(method).orElseThrow();
        MethodAssumptions.assumeAvailable(method, receiver.availability());
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             SocketChannel s = connect(server)) {
            TestFile small = server.data().generated(SMALL);
            byte[] download = bytes(RequestCodec.encode(Request.download("transfer-to", SMALL, 0, 0)));
            Random random = new Random(method.hashCode());
            // Bodies read ahead whole (with the next request behind them), in part, and not at all (past the buffer).
            for (int size : new int[] {1, 300, NativeRequestReader.CAPACITY, 50 * 1024 + 3}) {
                byte[] body = new byte[size];
                random.nextBytes(body);
                String name = "ahead-" + method + "-" + size + ".bin";
                byte[] head = bytes(RequestCodec.encode(Request.upload(method, name, size, crc32c(body), 0, 0)));
                // Netty's reads on an adopted channel take whatever the socket holds: their clients send nothing
                // behind the body before the result (EpollSpliceReceiver, IoUringReceiver), so neither does this one.
                boolean pipelined = !READ_PAST_THE_BODY.contains(method);
                byte[] all = pipelined ? concat(head, body, download) : concat(head, body);
                int bodyEnd = head.length + size;
                // One segment; cut inside the head; at the head's end; one body byte along; inside the body, near the
                // end of what one read can take; just before the body's end; at the body's end.
                int[][] cuts = {{}, {head.length / 2}, {head.length}, {head.length + 1},
                        {Math.min(bodyEnd - 1, NativeRequestReader.CAPACITY - 7)}, {bodyEnd - 1}, {bodyEnd},
                        {head.length / 2, head.length + size / 2}};
                for (int[] cut : cuts) {
                    if (cut.length > 0 && (cut[0] <= 0 || cut[cut.length - 1] >= all.length)) {
                        continue;
                    }
                    String as = method + " " + size + " bytes, cut at " + java.util.Arrays.toString(cut);
                    send(s, all, cut);
                    assertThat(ResponseCodec.readUploadReady(s)).as(as).isEqualTo(size);
                    UploadReport report = ResponseCodec.readUploadResult(s);
                    assertThat(report.bytes()).as(as).isEqualTo(size);
                    assertThat(report.crc32c()).as(as).isEqualTo(crc32c(body));
                    assertThat(Files.readAllBytes(dataDir.resolve(name))).as(as).isEqualTo(body);
                    if (!pipelined) {
                        send(s, download);
                    }
                    assertDownload(s, small);
                }
            }
        }
    }

    private static SocketChannel connect(XferServer server) throws IOException {
        SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()));
        s.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return s;
    }

    /** Writes {@code all} in parts cut at {@code cuts} (ascending), pausing between them. */
    private static void send(SocketChannel s, byte[] all, int... cuts) throws IOException, InterruptedException {
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : all.length;
            if (i > 0) {
                Thread.sleep(PAUSE_MS);
            }
            Frames.writeFully(s, ByteBuffer.wrap(all, from, to - from));
            from = to;
        }
    }

    private static void assertDownload(SocketChannel s, TestFile file) throws IOException {
        DownloadHeader header = ResponseCodec.readDownloadHeader(s);
        assertThat(header.length()).isEqualTo(file.size());
        ByteBuffer body = ByteBuffer.allocate((int) file.size());
        Frames.readFully(s, body);
        CRC32C crc = new CRC32C();
        crc.update(body.flip());
        assertThat((int) crc.getValue()).isEqualTo(file.crc32c());
        ResponseCodec.readTrailer(s);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static int crc32c(byte[] bytes) {
        CRC32C c = new CRC32C();
        c.update(bytes);
        return (int) c.getValue();
    }
}
