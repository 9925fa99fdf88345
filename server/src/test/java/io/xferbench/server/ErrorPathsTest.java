package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request that fails on the file system is told which file, relative to the data directory: never the server's
 * absolute layout (it was "/srv/data/base/x: Not a directory"), on every model, over both protocols.
 */
@Timeout(120)
class ErrorPathsTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void fileSystemFailuresNameFilesRelativeToTheDataDirectory(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        // A regular file where a directory should be: every name under it fails with ENOTDIR.
        Files.writeString(dataDir.resolve("base"), "a regular file");
        TestFile body = new DataDirectory(tmp.resolve("bodies")).generated(1000);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            Request download = new Request(Op.DOWNLOAD, "transfer-to", "base/x", "", 0, 0, Flags.VERIFY_CRC32C, 0);
            Request upload = Request.upload("stream", "base/x", 0, 0, Flags.VERIFY_CRC32C, 0);
            assertAnswered(() -> c.stat("base/x"), Status.SERVER_ERROR, "base/x");
            assertAnswered(() -> c.delete("base/x"), Status.SERVER_ERROR, "base/x");
            assertAnswered(() -> c.download(download), Status.SERVER_ERROR, "base/x");
            assertAnswered(() -> c.prepare(download), Status.SERVER_ERROR, "base/x");
            // Refused before anything is created, naming what was asked (its temp file beside the target once failed,
            // and the answer named that: "base/.tmp-…: Not a directory"); SERVER_ERROR as for STAT and DELETE.
            assertAnswered(() -> c.upload(upload, body), Status.SERVER_ERROR, "base/x: base is not a directory");
            // And further up (the answer was the JDK's "base/b: Not a directory").
            assertAnswered(() -> c.upload(Request.upload("stream", "base/b/x", 0, 0, Flags.VERIFY_CRC32C, 0), body),
                    Status.SERVER_ERROR, "base/b/x: base is not a directory");
            try (Stream<Path> files = Files.list(dataDir)) {
                assertThat(files.map(p -> p.getFileName().toString())).as("nothing created").containsExactly("base");
            }
            assertAnswered(() -> c.upload(Request.upload("stream", "missing/x", 0, 0, Flags.VERIFY_CRC32C, 0), body),
                    Status.NOT_FOUND, "missing");

            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", server.port()));
                s.setSoTimeout(30_000);
                s.getOutputStream().write("GET /base/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                HttpServingTest.Response r = HttpServingTest.read(s.getInputStream(), false);
                String text = new String(r.body(), StandardCharsets.UTF_8);
                assertThat(r.status()).as(text).isEqualTo(500);
                assertRelative(text, "base/x");
            }
        }
    }

    private void assertAnswered(ThrowingCallable request, Status status, String name) {
        assertThatThrownBy(request).isInstanceOfSatisfying(RemoteException.class, e -> {
            assertThat(e.status()).as(e.getMessage()).isEqualTo(status);
            assertRelative(e.reason(), name);
        });
    }

    private void assertRelative(String message, String name) {
        assertThat(message).contains(name).doesNotContain(tmp.toString());
    }
}
