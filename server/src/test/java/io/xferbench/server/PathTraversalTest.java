package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Names that try to leave the data directory, over the real protocol: for the default model, and for the two that
 * look a download's file up off the pool (on the ring, on the loop).
 */
class PathTraversalTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"platform", "netty-io-uring", "netty-epoll-inline"})
    void everyEscapeIsRefusedAndNothingOutsideIsReadOrCreated(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path data = Files.createDirectories(tmp.resolve("data"));
        Path secret = Files.writeString(tmp.resolve("secret.txt"), "do not serve");
        Files.createSymbolicLink(data.resolve("escape"), secret);
        Files.createSymbolicLink(data.resolve("updir"), tmp);
        Files.writeString(data.resolve("ok.txt"), "fine");
        List<String> before = listing(tmp);

        try (XferServer server = XferServer.start(ServerConfig.loopback(data).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            for (String name : List.of("../secret.txt", "/etc/passwd", "escape", "updir/secret.txt", "ok.txt/../../secret.txt",
                    "..%2fsecret.txt", "%2e%2e/secret.txt", "..\\secret.txt", "ok.txt\0", ".crc", "./ok.txt", "a//b")) {
                Request r = new Request(Op.DOWNLOAD, "stream", name, "", 0, 0, 0, 0);
                assertThatThrownBy(() -> c.download(r)).as(name.replace('\0', '0'))
                        .isInstanceOfSatisfying(RemoteException.class,
                                e -> assertThat(e.status()).isIn(Status.FORBIDDEN, Status.NOT_FOUND));
            }
            // STAT of a symlink out is refused, never the size of what it points to.
            for (String name : List.of("escape", "updir/secret.txt")) {
                assertThatThrownBy(() -> c.stat(name)).as("STAT " + name)
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.FORBIDDEN));
            }
            // Nor is absence out there told apart from presence (STAT said absent, DELETE NOT_FOUND), and a path through a
            // symlink to a file out there is refused as leaving (it was SERVER_ERROR "escape/x: Not a directory").
            for (String name : List.of("updir/no-such.txt", "updir/no-such/x", "escape/x")) {
                assertThatThrownBy(() -> c.stat(name)).as("STAT " + name).isInstanceOfSatisfying(RemoteException.class,
                        e -> assertThat(e.status()).as(e.reason()).isEqualTo(Status.FORBIDDEN));
                assertThatThrownBy(() -> c.delete(name)).as("DELETE " + name).isInstanceOfSatisfying(RemoteException.class,
                        e -> assertThat(e.status()).as(e.reason()).isEqualTo(Status.FORBIDDEN));
            }
            // The connection is still fine, and a legitimate name still works.
            assertThat(c.download(new Request(Op.DOWNLOAD, "stream", "ok.txt", "", 0, 0, io.xferbench.core.protocol.Flags.VERIFY_CRC32C, 0))
                    .bytes()).isEqualTo(4);
        }
        assertThat(listing(tmp)).as("nothing created outside the data dir").containsAll(before)
                .allMatch(p -> p.startsWith("data") || before.contains(p));
        assertThat(Files.readString(secret)).isEqualTo("do not serve");
    }

    private static List<String> listing(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
