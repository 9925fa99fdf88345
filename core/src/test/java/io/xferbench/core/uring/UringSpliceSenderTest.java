package io.xferbench.core.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.pipe.PipePool;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Linked, and unlinked as when Netty's early submit cuts every link: the bytes and the failures must not differ. */
@Timeout(60)
class UringSpliceSenderTest {
    @TempDir
    Path dir;

    /** Ranges that start and end off pipe boundaries, several per connection (one pooled pipe reused). */
    @ParameterizedTest(name = "link={0} pipe={1}")
    @CsvSource({"true,65536", "true,4096", "true,1048576", "false,65536", "false,4096"})
    void sendsExactRangesInOrder(boolean link, int pipeSize) throws Exception {
        MethodAssumptions.assumeAvailable("io_uring", UringAvailability.withDuplicatedFds());
        TestFile file = new DataDirectory(dir).generated((3 << 20) + 4097);
        long[][] ranges = {{0, file.size()}, {4095, 1}, {12345, (1 << 20) + 7}, {file.size() - 1, 1}, {100, 0}};
        try (PipePool pipes = new PipePool(pipeSize, 1, false);
             ServerSocketChannel listener = listen();
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ)) {
            UringSpliceSender sender = new UringSpliceSender(pipes, link);
            SourceFile source = new SourceFile(file.path(), ch, file.size());
            for (long[] r : ranges) {
                CompletableFuture<Integer> crc = LoopbackBodies.receive(client, r[1]);
                sender.send(source, r[0], r[1], accepted);
                assertThat(crc.get()).as("range %d+%d", r[0], r[1]).isEqualTo(LoopbackBodies.crcOf(ch, r[0], r[1]));
            }
            assertThat(pipes.stats().created()).as("pipes opened: the empty one went back each time").isEqualTo(1);
        }
    }

    /**
     * The file splice meets the end of a truncated file. Unlinked, the socket splice of that round finds the pipe
     * empty: it must end (SPLICE_F_NONBLOCK) rather than wait on the pipe until the test times out.
     */
    @ParameterizedTest(name = "link={0}")
    @ValueSource(booleans = {true, false})
    void aFileTruncatedUnderTheSenderFailsInsteadOfHanging(boolean link) throws Exception {
        MethodAssumptions.assumeAvailable("io_uring", UringAvailability.withDuplicatedFds());
        TestFile file = new DataDirectory(dir).generated(1 << 20);
        try (PipePool pipes = new PipePool(65536, 1, false);
             ServerSocketChannel listener = listen();
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.truncate(65536 + 1000);
            CompletableFuture<Integer> crc = LoopbackBodies.receive(client, 1 << 20);
            SourceFile source = new SourceFile(file.path(), ch, 1 << 20);
            UringSpliceSender sender = new UringSpliceSender(pipes, link);
            assertThatThrownBy(() -> sender.send(source, 0, 1 << 20, accepted))
                    .isInstanceOf(EOFException.class).hasMessageContaining("truncated");
            accepted.close();
            assertThat(crc).failsWithin(Duration.ofSeconds(10));
        }
    }

    private static ServerSocketChannel listen() throws IOException {
        return ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }
}
