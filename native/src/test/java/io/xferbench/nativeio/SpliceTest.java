package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

// A stuck splice cannot be interrupted: fail the test from another thread instead of hanging the build.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SpliceTest {
    private static final int SOCKET_BUFFER = 64 * 1024;

    @TempDir
    Path dir;

    private LoopbackPair sockets;
    private SocketChannel client;
    private SocketChannel accepted;

    @BeforeEach
    void connect() throws Exception {
        // 256 KiB in flight at most: 1 MiB must wait for the reader.
        sockets = LoopbackPair.open(SOCKET_BUFFER);
        client = sockets.client();
        accepted = sockets.accepted();
    }

    @AfterEach
    void disconnect() throws Exception {
        sockets.close();
    }

    @ParameterizedTest(name = "{0} bytes from position {1}, non-blocking socket: {2}")
    @CsvSource({"0, 0, false", "1048577, 0, false", "1048577, 12345, false", "1048577, 0, true"})
    void fileToSocketIsByteExact(int length, long position, boolean nonBlocking) throws Exception {
        byte[] data = TestData.bytes((int) position + length, length);
        Path file = Files.write(dir.resolve("src"), data);
        // The reader runs on another thread; for the non-blocking case it starts late, so the sender must wait.
        CompletableFuture<long[]> received = CompletableFuture.supplyAsync(() -> crcUntilEof(accepted, nonBlocking ? 100 : 0));
        client.configureBlocking(!nonBlocking);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Splice.Pipe pipe = Splice.Pipe.open()) {
            assertThat(Splice.fileToSocket(Fds.of(ch), position, length, Fds.of(client), pipe)).isEqualTo(length);
            assertThat(ch.position()).as("the file's own position").isZero();
        }
        client.shutdownOutput();
        long[] countAndCrc = received.get(20, TimeUnit.SECONDS);
        assertThat(countAndCrc[0]).isEqualTo(length);
        assertThat(countAndCrc[1]).isEqualTo(TestData.crc32c(Arrays.copyOfRange(data, (int) position, data.length)));
    }

    @ParameterizedTest(name = "{0} bytes to position {1}, non-blocking socket: {2}")
    @CsvSource({"0, 0, false", "1048577, 0, false", "1048577, 4096, false", "1048577, 0, true"})
    void socketToFileIsByteExact(int length, long position, boolean nonBlocking) throws Exception {
        byte[] data = TestData.bytes(length, length + 1);
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> sendSlowly(client, data));
        accepted.configureBlocking(!nonBlocking);
        Path file = dir.resolve("dst");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             Splice.Pipe pipe = Splice.Pipe.open()) {
            assertThat(Splice.socketToFile(Fds.of(accepted), Fds.of(ch), position, length, pipe)).isEqualTo(length);
        }
        sent.get(20, TimeUnit.SECONDS);
        byte[] written = Files.readAllBytes(file);
        assertThat(written).hasSize((int) position + length);
        assertThat(Arrays.copyOfRange(written, 0, (int) position)).as("untouched hole before position")
                .isEqualTo(new byte[(int) position]);
        assertThat(TestData.crc32c(Arrays.copyOfRange(written, (int) position, written.length)))
                .isEqualTo(TestData.crc32c(data));
    }

    @Test
    void peerClosingEarlyIsAnEofWithTheCounts() throws Exception {
        client.write(ByteBuffer.wrap(TestData.bytes(1000, 1)));
        client.close();
        try (FileChannel ch = FileChannel.open(dir.resolve("dst"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
             Splice.Pipe pipe = Splice.Pipe.open()) {
            assertThatThrownBy(() -> Splice.socketToFile(Fds.of(accepted), Fds.of(ch), 0, 5000, pipe))
                    .isInstanceOf(EOFException.class)
                    .hasMessageContaining("after 1000 of 5000 bytes");
        }
        assertThat(Files.size(dir.resolve("dst"))).isEqualTo(1000);
    }

    @Test
    void fileShorterThanLengthIsAnEofWithTheCounts() throws Exception {
        Path file = TestData.file(dir.resolve("src"), 100, 1);
        CompletableFuture.supplyAsync(() -> crcUntilEof(accepted, 0));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Splice.Pipe pipe = Splice.Pipe.open()) {
            assertThatThrownBy(() -> Splice.fileToSocket(Fds.of(ch), 0, 200, Fds.of(client), pipe))
                    .isInstanceOf(EOFException.class)
                    .hasMessageContaining("after 100 of 200 bytes");
        }
    }

    @Test
    void rawSpliceErrorsCarryTheErrnoName() throws Exception {
        try (Splice.Pipe pipe = Splice.Pipe.open()) {
            // Pipes have no file offset: an offset for the pipe end is ESPIPE.
            assertThatThrownBy(() -> Splice.splice(pipe.readFd(), 0, Fds.of(client), -1, 1, 0))
                    .isInstanceOf(NativeException.class)
                    .hasMessageContaining("ESPIPE")
                    .hasMessageContaining("Illegal seek");
            assertThatThrownBy(() -> Splice.splice(1 << 30, -1, pipe.writeFd(), -1, 1, 0))
                    .isInstanceOf(NativeException.class)
                    .hasMessageContaining("EBADF");
            // Nothing in the pipe and SPLICE_F_NONBLOCK: EAGAIN, not a hang.
            assertThatThrownBy(() -> Splice.splice(pipe.readFd(), -1, Fds.of(client), -1, 1, Splice.SPLICE_F_NONBLOCK))
                    .isInstanceOf(NativeException.class)
                    .extracting(e -> ((NativeException) e).errnoName()).isEqualTo("EAGAIN");
        }
    }

    @Test
    void rawSpliceWithAFileOffsetLeavesTheFilePositionAlone() throws Exception {
        byte[] data = TestData.bytes(10_000, 3);
        Path file = Files.write(dir.resolve("src"), data);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ); Splice.Pipe pipe = Splice.Pipe.open()) {
            assertThat(Splice.splice(Fds.of(ch), 5000, pipe.writeFd(), -1, 100, Splice.SPLICE_F_MOVE)).isEqualTo(100);
            assertThat(ch.position()).isZero();
            ByteBuffer out = ByteBuffer.allocate(100);
            try (FileChannel readEnd = FileChannel.open(Path.of("/proc/self/fd/" + pipe.readFd()), StandardOpenOption.READ)) {
                readEnd.read(out);
            }
            assertThat(out.array()).isEqualTo(Arrays.copyOfRange(data, 5000, 5100));
        }
    }

    @Test
    void pipeResizeReportsTheActualSizeCappedAtTheMaximum() throws Exception {
        int max = Splice.Pipe.maxSize();
        try (Splice.Pipe pipe = Splice.Pipe.open()) {
            assertThat(pipe.size()).isPositive();
            int oneMib = 1 << 20;
            int resized = pipe.resize(Math.min(oneMib, max));
            assertThat(resized).isEqualTo(pipe.size()).isGreaterThanOrEqualTo(Math.min(oneMib, max)).isLessThanOrEqualTo(max);
            // Rounded up to a power-of-two number of pages.
            assertThat(pipe.resize(5000)).isEqualTo(2 * AlignedBuffers.pageSize());
            assertThat(pipe.resize(Integer.MAX_VALUE)).isEqualTo(max);
        }
    }

    @Test
    void resizingAPipeBelowItsContentsIsEbusy() throws Exception {
        try (Splice.Pipe pipe = Splice.Pipe.open()) {
            int page = AlignedBuffers.pageSize();
            pipe.resize(16 * page);
            Path file = TestData.file(dir.resolve("src"), 8 * page, 2);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                assertThat(Splice.splice(Fds.of(ch), 0, pipe.writeFd(), -1, 8L * page, 0)).isEqualTo(8L * page);
            }
            assertThatThrownBy(() -> pipe.resize(page)).isInstanceOf(NativeException.class).hasMessageContaining("EBUSY");
            assertThat(pipe.size()).isEqualTo(16 * page);
        }
    }

    /** Reads to end of stream after {@code delayMillis}; returns {bytes, CRC32C}. */
    private static long[] crcUntilEof(SocketChannel channel, long delayMillis) {
        try {
            Thread.sleep(delayMillis);
            CRC32C crc = new CRC32C();
            ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
            long total = 0;
            int n;
            while ((n = channel.read(buffer.clear())) >= 0) {
                crc.update(buffer.flip());
                total += n;
            }
            return new long[] {total, crc.getValue()};
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes in small pieces with pauses, so a non-blocking reader meets an empty socket (EAGAIN). */
    private static void sendSlowly(SocketChannel channel, byte[] data) {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(data);
            while (buffer.hasRemaining()) {
                channel.write(buffer.slice().limit(Math.min(buffer.remaining(), 256 * 1024)));
                buffer.position(Math.min(buffer.limit(), buffer.position() + 256 * 1024));
                Thread.sleep(5);
            }
            channel.shutdownOutput();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
