package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Wire;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A server out of file descriptors (a real process under a low RLIMIT_NOFILE), per I/O model: clients it cannot
 * accept are told BUSY at once instead of waiting in the backlog, the log does not flood (the event-loop models
 * logged Netty's pipeline-tail warning per failed accept: io_uring re-armed it at once, 100,000 lines in 5 s), an
 * upload in flight across the exhaustion lands verified, and it serves again once descriptors free.
 */
@Timeout(180)
class FdExhaustionTest {
    private static final int FD_LIMIT = 160;
    private static final int CLIENTS = 300;
    private static final long UPLOAD = Sizes.MiB + 1; // over 1 MiB: its checksum record is a file

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void clientsBeyondTheDescriptorLimitAreToldBusyAndTheServerRecovers(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        TestFile body = new DataDirectory(tmp.resolve("client")).generated(UPLOAD);
        List<SocketChannel> clients = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start(List.of("prlimit", "--nofile=" + FD_LIMIT + ":" + FD_LIMIT), List.of(),
                tmp.resolve("data"), "--max-connections", "2000", "--io-model", model);
             SocketChannel uploader = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port))) {
            int port = server.port;
            List<String> log = server.log;
            // One whole upload and download first, as a server that has been serving has done: on the test's class path
            // (directories of classes) the first use of a class opens a file, which no descriptor would be left for.
            try (SocketChannel warm = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
                Frames.writeFully(warm, RequestCodec.encode(new Request(Op.UPLOAD, "stream", "warm.dat", "", body.size(),
                        body.crc32c(), Flags.VERIFY_CRC32C, 0)));
                ResponseCodec.readUploadReady(warm);
                sendBody(body, warm, 0, UPLOAD);
                assertThat(ResponseCodec.readUploadResult(warm).bytes()).as("the warm-up upload").isEqualTo(UPLOAD);
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
                assertThat(c.download(new Request(Op.DOWNLOAD, "transfer-to", "warm.dat", "", 0, 0, Flags.VERIFY_CRC32C, 0))
                        .verified()).as("the warm-up download").isTrue();
            }
            // An upload admitted and half sent before the descriptors run out, finished while they are out.
            Frames.writeFully(uploader, RequestCodec.encode(new Request(Op.UPLOAD, "stream", "inflight.dat", "", body.size(),
                    body.crc32c(), Flags.VERIFY_CRC32C, 0)));
            ResponseCodec.readUploadReady(uploader);
            sendBody(body, uploader, 0, UPLOAD / 2);
            // Hold many idle connections: each one the server accepts keeps a descriptor.
            for (int i = 0; i < CLIENTS; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                c.configureBlocking(false);
                clients.add(c);
            }
            int busy = 0;
            long deadline = System.nanoTime() + 20_000_000_000L;
            List<SocketChannel> waiting = new ArrayList<>(clients);
            while (System.nanoTime() < deadline && busy < CLIENTS - FD_LIMIT) {
                for (var it = waiting.iterator(); it.hasNext(); ) {
                    SocketChannel c = it.next();
                    ByteBuffer b = ByteBuffer.allocate(Wire.RESPONSE_PREFIX_BYTES);
                    int n = c.read(b);
                    if (n > 0 && b.get(4) == Status.BUSY.code()) {
                        busy++;
                        it.remove();
                    } else if (n < 0) {
                        it.remove();
                    }
                }
                Thread.sleep(50);
            }
            assertThat(busy).as("clients beyond the descriptor limit told BUSY; log %s", log.stream().limit(10).toList()).isGreaterThanOrEqualTo(CLIENTS - FD_LIMIT);
            sendBody(body, uploader, UPLOAD / 2, UPLOAD);
            assertThat(ResponseCodec.readUploadResult(uploader).bytes()).as("the upload in flight").isEqualTo(UPLOAD);
            long acceptFailures = log.stream().filter(l -> l.contains("accept failed") || l.contains("exceptionCaught")).count();
            assertThat(acceptFailures).as("accept failures logged (rate-limited): %s", log.stream().limit(20).toList())
                    .isLessThanOrEqualTo(4);

            for (SocketChannel c : clients) {
                c.close();
            }
            clients.clear();
            int p = port;
            MalformedRequestStormTest.waitUntil(() -> {
                try (XferConnection c = XferConnection.open("127.0.0.1", p, "")) {
                    return c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)).verified()
                            && c.download(new Request(Op.DOWNLOAD, "transfer-to", "inflight.dat", "", 0, 0, Flags.VERIFY_CRC32C, 0))
                            .verified();
                } catch (Exception notYet) {
                    return false;
                }
            }, "served again after the descriptors were freed, the upload in flight verified");
        } finally {
            for (SocketChannel c : clients) {
                c.close();
            }
        }
    }

    private static void sendBody(TestFile body, SocketChannel to, long from, long end) throws Exception {
        try (FileChannel in = FileChannel.open(body.path(), StandardOpenOption.READ)) {
            long pos = from;
            while (pos < end) {
                pos += in.transferTo(pos, end - pos, to);
            }
        }
    }
}
