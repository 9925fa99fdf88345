package io.xferbench.server;

import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.request.FailureStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.UploadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.testing.TempFileNames;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** A real server on loopback; every upload method, the sizes where off-by-one lives, failures and refusals. */
@Timeout(180)
public class UploadIntegrationTest {
    private static final long[] SIZES = {0, 1, Sizes.MiB + 1};
    /** Past 2^31 and past the second 1 GiB window/chunk boundary, by a part of a page. */
    static final long LARGE = 2 * Sizes.GiB + 4097;

    @TempDir
    static Path serverDir;
    @TempDir
    static Path clientDir;
    static XferServer server;
    static DataDirectory client;

    @BeforeAll
    static void startServer() throws Exception {
        server = XferServer.start(ServerConfig.loopback(serverDir));
        client = new DataDirectory(clientDir);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    static Stream<Arguments> methodsAndSizes() {
        return UploadMethods.all().stream()
                .flatMap(m -> Stream.of(SIZES).flatMapToLong(java.util.Arrays::stream).mapToObj(s -> Arguments.of(m.id(), s)));
    }

    static Stream<String> methods() {
        return UploadMethods.ids().stream();
    }

    @ParameterizedTest(name = "{0} {1} bytes")
    @MethodSource("methodsAndSizes")
    void everyMethodStoresTheExactBytes(String id, long size) throws Exception {
        assumeAvailable(id);
        TestFile body = client.generated(size);
        String name = "up-" + id + "-" + size + ".dat";
        try (XferConnection c = connect()) {
            // Twice on one connection (the second replaces the first and reuses the receiver), then a download:
            // a receiver that read one byte too many would break the request after it.
            for (int i = 0; i < 2; i++) {
                UploadResult r = c.upload(upload(id, name, 0), body);
                assertThat(r.failure()).as(id + " " + size).isNull();
                assertThat(r.verified()).isTrue();
                assertThat(r.bytes()).isEqualTo(size);
                assertThat(r.fsyncNanos()).isEqualTo(-1);
                assertThat(r.serverNanos()).isPositive();
            }
            assertDownloadWorks(c);
        }
        assertStored(name, body);
        assertNoTempFiles();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"transfer-from", "mmap", "splice"})
    void moreThanTwoGibibytes(String id) throws Exception {
        assumeAvailable(id);
        TestFile body = client.generated(LARGE);
        String name = "large-" + id + ".dat";
        try (XferConnection c = connect()) {
            UploadResult r = c.upload(upload(id, name, 0), body);
            assertThat(r.failure()).isNull();
            assertThat(r.bytes()).isEqualTo(LARGE);
            assertDownloadWorks(c);
        }
        try {
            assertStored(name, body);
        } finally {
            Files.deleteIfExists(serverDir.resolve(name));
        }
    }

    @Test
    void epollSpliceWritesUpToTheLastOffsetItsIntCanReach() throws Exception {
        assumeAvailable("epoll-splice");
        TestFile body = client.generated(Integer.MAX_VALUE);
        String name = "edge-epoll-splice.dat";
        try (XferConnection c = connect()) {
            UploadResult r = c.upload(upload("epoll-splice", name, 0), body);
            assertThat(r.failure()).isNull();
            assertThat(r.checksumReread()).isTrue();
            assertDownloadWorks(c);
        }
        try {
            assertStored(name, body);
        } finally {
            Files.deleteIfExists(serverDir.resolve(name));
            Files.deleteIfExists(body.path());
        }
    }

    @Test
    void epollSpliceRefusesWhatItsIntOffsetCannotReachBeforeAnyByte() throws Exception {
        assumeAvailable("epoll-splice");
        TestFile body = client.generated(LARGE);
        try (XferConnection c = connect()) {
            assertThatThrownBy(() -> c.upload(upload("epoll-splice", "refused.dat", 0), body))
                    .isInstanceOfSatisfying(RemoteException.class, e -> {
                        assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                        assertThat(e.reason()).contains("epoll-splice", "at most 2147483647",
                                "spliceTo(FileDescriptor, int offset, int len)", "int");
                    });
            // Refused before the body: the connection is still in step.
            assertDownloadWorks(c);
        }
        assertThat(serverDir.resolve("refused.dat")).doesNotExist();
        assertNoTempFiles();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("methods")
    void aClientThatDisconnectsMidBodyLeavesNothingBehind(String id) throws Exception {
        assumeAvailable(id);
        String name = "abandoned-" + id + ".dat";
        long declared = 8 * Sizes.MiB;
        TestFile before = client.generated(1);
        try (XferConnection c = connect()) {
            assertThat(c.upload(upload("stream", name, 0), before).verified()).isTrue();
        }
        try (SocketChannel raw = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
            Frames.writeFully(raw, RequestCodec.encode(Request.upload(id, name, declared, 0, 0, 0)));
            assertThat(ResponseCodec.readUploadReady(raw)).isEqualTo(declared);
            ByteBuffer part = ByteBuffer.allocate((int) Sizes.MiB);
            Frames.writeFully(raw, part);
        }
        waitUntilNoTempFiles();
        assertStored(name, before); // the file the abandoned upload would have replaced is untouched
        try (XferConnection c = connect()) {
            assertDownloadWorks(c);
        }
        Files.delete(serverDir.resolve(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("methods")
    void aWrongChecksumIsRefusedAndStoresNothing(String id) throws Exception {
        assumeAvailable(id);
        TestFile real = client.generated(Sizes.MiB + 1);
        TestFile lying = new TestFile(real.path(), real.size(), real.crc32c() ^ 1);
        String name = "lying-" + id + ".dat";
        try (XferConnection c = connect()) {
            assertThatThrownBy(() -> c.upload(upload(id, name, 0), lying))
                    .isInstanceOfSatisfying(RemoteException.class, e -> {
                        assertThat(e.status()).isEqualTo(Status.VERIFY_FAILED);
                        assertThat(e.reason()).contains("CRC32C");
                    });
            // The body was read to its end: the connection goes on.
            assertDownloadWorks(c);
        }
        assertThat(serverDir.resolve(name)).doesNotExist();
        assertNoTempFiles();
    }

    /**
     * Every upload and download method on one connection, interleaved: the Netty ones work on duplicates of the
     * same socket (sharing its blocking flag) and each keeps its adopted channel; none may disturb another.
     */
    @Test
    void allMethodsTakeTurnsOnOneConnection() throws Exception {
        TestFile body = client.generated(256 * 1024 + 3);
        try (XferConnection c = connect()) {
            for (int round = 0; round < 2; round++) {
                for (ReceiverMethod up : UploadMethods.all()) {
                    if (!up.availability().isAvailable()) {
                        continue;
                    }
                    assertThat(c.upload(upload(up.id(), "turns.dat", 0), body).verified()).as(up.id()).isTrue();
                    for (io.xferbench.core.method.SenderMethod down : io.xferbench.core.registry.DownloadMethods.blocking()) {
                        // A TLS method's turns among plaintext requests on one connection: TlsDownloadTest.
                        if (down.availability().isAvailable() && !down.traits().tls()) {
                            DownloadResult d = c.download(Request.download(down.id(), 70_001, Flags.VERIFY_CRC32C, 0));
                            assertThat(d.verified()).as(up.id() + " then " + down.id()).isTrue();
                        }
                    }
                }
            }
        }
        assertStored("turns.dat", body);
    }

    @Test
    void fsyncIsDoneWhenAskedAndReported() throws Exception {
        TestFile body = client.generated(Sizes.MiB + 1);
        try (XferConnection c = connect()) {
            UploadResult r = c.upload(upload("channel-direct", "synced.dat", Flags.FSYNC), body);
            assertThat(r.verified()).isTrue();
            assertThat(r.fsyncNanos()).isPositive();
            assertThat(r.checksumReread()).isFalse();
            UploadResult zeroCopy = c.upload(upload("transfer-from", "synced.dat", 0), body);
            assertThat(zeroCopy.checksumReread()).isTrue();
            assertThat(zeroCopy.verifyNanos()).isPositive();
        }
        assertStored("synced.dat", body);
    }

    @Test
    void refusalsComeBeforeTheBodyAndKeepTheConnection() throws Exception {
        TestFile body = client.generated(1);
        TestFile huge = new TestFile(body.path(), Long.MAX_VALUE / 2, 0);
        try (XferConnection c = connect()) {
            assertRefused(c, upload("no-such-method", "x.dat", 0), body, Status.BAD_REQUEST, "unknown upload method");
            assertRefused(c, upload("stream", "", 0), body, Status.BAD_REQUEST, "needs the name");
            assertRefused(c, upload("stream", "../escape.dat", 0), body, Status.FORBIDDEN, "..");
            assertRefused(c, upload("stream", ".hidden", 0), body, Status.FORBIDDEN, "hidden");
            assertRefused(c, upload("stream", "no-such-dir/x.dat", 0), body, Status.NOT_FOUND, "no-such-dir");
            assertRefused(c, upload("stream", "huge.dat", 0), huge, Status.TOO_LARGE, "--max-upload");
            assertDownloadWorks(c);
        }
        // Within --max-upload but beyond the file system's usable space.
        try (XferServer unlimited = XferServer.start(ServerConfig.loopback(serverDir).withMaxUpload(Long.MAX_VALUE));
             XferConnection c = XferConnection.open("127.0.0.1", unlimited.port(), "")) {
            assertRefused(c, upload("stream", "huge.dat", 0), huge, Status.NO_SPACE, "does not fit");
        }
        assertNoTempFiles();
    }

    @Test
    void infoListsUploadMethodsWithDirectionAndLimits() throws Exception {
        try (XferConnection c = connect()) {
            JsonNode info = new ObjectMapper().readTree(c.control(Op.INFO));
            List<JsonNode> uploads = Stream.of(info.get("methods")).flatMap(n -> java.util.stream.StreamSupport.stream(n.spliterator(), false))
                    .filter(m -> m.get("direction").asText().equals("upload")).toList();
            assertThat(uploads).extracting(m -> m.get("id").asText()).containsExactlyElementsOf(UploadMethods.ids());
            JsonNode splice = uploads.stream().filter(m -> m.get("id").asText().equals("epoll-splice")).findFirst().orElseThrow();
            assertThat(splice.get("maxLength").asLong()).isEqualTo(Integer.MAX_VALUE);
        }
    }

    @Test
    void enospcMapsToNoSpace() {
        assertThat(FailureStatus.of(new IOException("No space left on device"))).isEqualTo(Status.NO_SPACE);
        assertThat(FailureStatus.of(new IOException("wrapped", new IOException("splice(..) failed: No space left on device"))))
                .isEqualTo(Status.NO_SPACE);
        assertThat(FailureStatus.of(new io.xferbench.nativeio.NativeException("splice", io.xferbench.nativeio.Errno.ENOSPC)))
                .isEqualTo(Status.NO_SPACE);
        assertThat(FailureStatus.of(new IOException("Input/output error"))).isEqualTo(Status.SERVER_ERROR);
    }

    // --- helpers

    static Request upload(String id, String name, int flags) {
        return Request.upload(id, name, 0, 0, flags, 0);
    }

    static void assumeAvailable(String id) {
        ReceiverMethod method = UploadMethods.byId(id).orElseThrow();
        MethodAssumptions.assumeAvailable(id, method.availability());
    }

    static XferConnection connect() throws IOException {
        return XferConnection.open("127.0.0.1", server.port(), "");
    }

    static void assertRefused(XferConnection c, Request r, TestFile body, Status status, String reason) {
        assertThatThrownBy(() -> c.upload(r, body)).isInstanceOfSatisfying(RemoteException.class, e -> {
            assertThat(e.status()).as(e.getMessage()).isEqualTo(status);
            assertThat(e.reason()).contains(reason);
        });
    }

    static void assertDownloadWorks(XferConnection c) throws IOException {
        DownloadResult d = c.download(Request.download("channel-direct", 4097, Flags.VERIFY_CRC32C, 0));
        assertThat(d.failure()).isNull();
        assertThat(d.verified()).isTrue();
    }

    /** The stored file has the body's size and CRC32C, read back independently of the server. */
    static void assertStored(String name, TestFile body) throws IOException {
        Path stored = serverDir.resolve(name);
        assertThat(stored).exists();
        assertThat(Files.size(stored)).isEqualTo(body.size());
        assertThat(crc32c(stored)).as("CRC32C of " + name).isEqualTo(body.crc32c());
    }

    public static int crc32c(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            while (in.read(buf.clear()) >= 0) {
                crc.update(buf.flip());
            }
        }
        return (int) crc.getValue();
    }

    static List<String> tempFiles() {
        return TempFileNames.in(serverDir);
    }

    static void assertNoTempFiles() throws IOException {
        assertThat(tempFiles()).isEmpty();
    }

    /** The server notices a vanished client on its own thread: give it a bounded while. */
    static void waitUntilNoTempFiles() throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!tempFiles().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertNoTempFiles();
    }
}
