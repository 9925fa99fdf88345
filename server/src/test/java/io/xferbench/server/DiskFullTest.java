package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A real ENOSPC: the data directory is an 8 MiB tmpfs mounted for the test (root only; skipped with the reason
 * elsewhere). Two 6 MiB uploads are both admitted (each fits the free space when asked), then the second body
 * runs out of space mid-write: it must fail as NO_SPACE, leave no temp file, keep the first upload intact, and
 * the server must keep serving.
 */
class DiskFullTest {
    static final long UPLOAD = 6 * Sizes.MiB;

    @TempDir
    Path tmp;
    Path mount;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        mount = SmallTmpfs.mount(tmp);
    }

    @AfterEach
    void unmount() throws Exception {
        SmallTmpfs.unmount(mount);
    }

    static Stream<String> receivers() {
        return UploadMethods.all().stream().map(ReceiverMethod::id);
    }

    @ParameterizedTest
    @MethodSource("receivers")
    void anUploadThatRunsOutOfSpaceFailsCleanly(String method) throws Exception {
        MethodAssumptions.assumeAvailable(method, UploadMethods.byId(method).orElseThrow().availability());
        TestFile body = new DataDirectory(tmp.resolve("client")).generated(UPLOAD);
        try (XferServer server = XferServer.start(ServerConfig.loopback(mount));
             SocketChannel first = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()));
             SocketChannel second = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            // Both admitted while the tmpfs is still empty.
            Frames.writeFully(first, RequestCodec.encode(upload("stream", "first.dat", body)));
            ResponseCodec.readUploadReady(first);
            Frames.writeFully(second, RequestCodec.encode(upload(method, "second.dat", body)));
            ResponseCodec.readUploadReady(second);

            sendBody(body, first);
            assertThat(ResponseCodec.readUploadResult(first).bytes()).isEqualTo(UPLOAD);

            sendBodyTolerantly(body, second);
            assertThatThrownBy(() -> ResponseCodec.readUploadResult(second))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.NO_SPACE));

            try (Stream<Path> files = Files.list(mount)) {
                List<String> names = files.map(p -> p.getFileName().toString()).toList();
                assertThat(names).contains("first.dat").doesNotContain("second.dat");
            }
            assertThat(TempFileNames.in(mount)).isEmpty();
            assertThat(Files.size(mount.resolve("first.dat"))).isEqualTo(UPLOAD);
            // The server keeps serving (a small generated file fits in what is left).
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThat(c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }

    private static Request upload(String method, String name, TestFile body) {
        return new Request(Op.UPLOAD, method, name, "", body.size(), body.crc32c(), Flags.VERIFY_CRC32C, 0);
    }

    static void sendBody(TestFile body, SocketChannel to) throws IOException {
        try (FileChannel in = FileChannel.open(body.path(), StandardOpenOption.READ)) {
            long pos = 0;
            while (pos < body.size()) {
                pos += in.transferTo(pos, body.size() - pos, to);
            }
        }
    }

    /** The server may answer and close before the whole body is in; that is its right after ENOSPC. */
    static void sendBodyTolerantly(TestFile body, SocketChannel to) {
        try {
            sendBody(body, to);
        } catch (IOException closedEarly) {
            // The error frame is still waiting to be read.
        }
    }
}
