package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class SendfileTest {
    @TempDir
    Path dir;

    private LoopbackPair sockets;
    private SocketChannel client;
    private SocketChannel accepted;

    @BeforeEach
    void connect() throws Exception {
        sockets = LoopbackPair.open(16 * 1024);
        client = sockets.client();
        accepted = sockets.accepted();
    }

    @AfterEach
    void disconnect() throws Exception {
        sockets.close();
    }

    @Test
    void sendsTheBytesAtThePositionAndLeavesTheFilesOwnPositionAlone() throws Exception {
        byte[] data = TestData.bytes(10_000, 3);
        try (FileChannel file = FileChannel.open(TestData.file(dir.resolve("f"), data.length, 3), StandardOpenOption.READ)) {
            assertThat(Sendfile.send(Fds.of(client), Fds.of(file), 1234, 5000)).isEqualTo(5000);
            assertThat(file.position()).isZero();
        }
        ByteBuffer got = ByteBuffer.allocate(5000);
        while (got.hasRemaining()) {
            accepted.read(got);
        }
        assertThat(got.array()).isEqualTo(Arrays.copyOfRange(data, 1234, 6234));
    }

    @Test
    void atTheEndOfTheFileItSendsNothing() throws Exception {
        try (FileChannel file = FileChannel.open(TestData.file(dir.resolve("f"), 100, 4), StandardOpenOption.READ)) {
            assertThat(Sendfile.send(Fds.of(client), Fds.of(file), 100, 10)).isZero();
        }
    }

    @Test
    void aFullNonBlockingSocketAnswersSocketFullNotAnError() throws Exception {
        client.configureBlocking(false);
        try (FileChannel file = FileChannel.open(TestData.file(dir.resolve("f"), 1 << 20, 5), StandardOpenOption.READ)) {
            long sent = 0;
            long n;
            // Nobody reads: the socket fills, and then the answer is SOCKET_FULL, with nothing sent.
            while ((n = Sendfile.send(Fds.of(client), Fds.of(file), sent, (1 << 20) - sent)) > 0) {
                sent += n;
            }
            assertThat(n).isEqualTo(Sendfile.SOCKET_FULL);
            assertThat(sent).isPositive().isLessThan(1 << 20);
        }
    }
}
