package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FdsTest {

    @Test
    void fileChannelFdIsTheOneProcSelfFdNames(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            int fd = Fds.of(ch);
            assertThat(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd))).isEqualTo(file.toRealPath());
            int copy = Fds.dup(fd);
            try {
                assertThat(copy).isNotEqualTo(fd);
                assertThat(Files.readSymbolicLink(Path.of("/proc/self/fd/" + copy))).isEqualTo(file.toRealPath());
            } finally {
                Fds.close(copy);
            }
        }
    }

    /** The caller hands the dup over: a channel that cannot be made (no remote address) must not leak it. */
    @Test
    void aSocketChannelThatCannotBeMadeClosesTheFdItWasHanded() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept()) {
            int copy = Fds.dup(Fds.of(accepted));
            Path link = Path.of("/proc/self/fd/" + copy);
            Path socket = Files.readSymbolicLink(link);
            assertThatThrownBy(() -> Fds.socketChannel(copy, null)).isInstanceOf(IllegalStateException.class);
            // Closed: gone, or (another thread took the number meanwhile) no longer this socket.
            assertThat(!Files.exists(link, LinkOption.NOFOLLOW_LINKS) || !Files.readSymbolicLink(link).equals(socket))
                    .as("fd " + copy + " closed").isTrue();
        }
    }

    @Test
    void closingABadFdNamesTheErrno() {
        assertThatThrownBy(() -> Fds.close(1 << 30))
                .isInstanceOf(NativeException.class)
                .hasMessageContaining("EBADF")
                .hasMessageContaining("Bad file descriptor");
    }
}
