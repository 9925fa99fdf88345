package io.xferbench.core.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.testing.MethodAssumptions;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(60)
class UringFileReceiverTest {
    private static final byte[] NEXT_REQUEST = "NEXT REQUEST".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    /**
     * Bodies that end off buffer boundaries, one after the other on one connection (buffers reused), each followed
     * by the next request's bytes, which must still be on the socket afterwards.
     */
    @ParameterizedTest(name = "depth={0} chunk={1}")
    @CsvSource({"4,65536", "1,65536", "3,4096"})
    void storesExactlyTheAnnouncedBytesAndLeavesTheNextRequestUnread(int depth, int chunk) throws Exception {
        MethodAssumptions.assumeAvailable("io_uring", UringAvailability.withDuplicatedFds());
        long[] sizes = {1, chunk - 1, chunk, chunk + 1, (3L << 20) + 4097, 0, 12345};
        int previousDepth = UringDepth.get();
        UringDepth.set(depth);
        try (ServerSocketChannel listener = listen();
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             UringFileReceiver receiver = new UringFileReceiver(chunk)) {
            for (int i = 0; i < sizes.length; i++) {
                byte[] body = bytes(sizes[i], i);
                CompletableFuture<Void> sent = write(client, body, NEXT_REQUEST);
                Path path = dir.resolve("body" + i);
                try (FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    long crc = receiver.receive(accepted, file, path, body.length);
                    assertThat(crc).as("CRC32C of %d bytes", body.length).isEqualTo(crcOf(body));
                }
                assertThat(Files.readAllBytes(path)).as("file of %d bytes", body.length).isEqualTo(body);
                sent.get();
                ByteBuffer next = ByteBuffer.allocate(NEXT_REQUEST.length);
                while (next.hasRemaining()) {
                    assertThat(accepted.read(next)).isPositive();
                }
                assertThat(next.array()).as("the bytes after the body").isEqualTo(NEXT_REQUEST);
            }
        } finally {
            UringDepth.set(previousDepth);
        }
    }

    @Test
    void aPeerClosingEarlyFailsWithTheCountAndWritesNothingPastWhatArrived() throws Exception {
        MethodAssumptions.assumeAvailable("io_uring", UringAvailability.withDuplicatedFds());
        int arrived = (1 << 20) + 100;
        long announced = 4L << 20;
        byte[] part = bytes(arrived, 7);
        Path path = dir.resolve("partial");
        try (ServerSocketChannel listener = listen();
             SocketChannel client = SocketChannel.open(listener.getLocalAddress());
             SocketChannel accepted = listener.accept();
             UringFileReceiver receiver = new UringFileReceiver(65536);
             FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            write(client, part).thenRun(() -> close(client));
            assertThatThrownBy(() -> receiver.receive(accepted, file, path, announced))
                    .isInstanceOf(EOFException.class)
                    .hasMessage("connection closed after " + arrived + " of " + announced + " body bytes");
            // Returned only after the writes in flight completed: every full buffer (64 KiB) that arrived is in the
            // file, the 100 bytes of the unfinished one are not, and nothing was extended toward the announced length.
            int fullBuffers = arrived / 65536 * 65536;
            assertThat(file.size()).isEqualTo(fullBuffers);
            ByteBuffer content = ByteBuffer.allocate(fullBuffers);
            file.read(content, 0);
            assertThat(content.array()).isEqualTo(java.util.Arrays.copyOf(part, fullBuffers));
        }
    }

    private static ServerSocketChannel listen() throws IOException {
        return ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    private static byte[] bytes(long size, long seed) {
        byte[] b = new byte[(int) size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static long crcOf(byte[] b) {
        CRC32C crc = new CRC32C();
        crc.update(b);
        return crc.getValue();
    }

    private static CompletableFuture<Void> write(SocketChannel client, byte[]... parts) {
        return CompletableFuture.runAsync(() -> {
            try {
                for (byte[] p : parts) {
                    ByteBuffer b = ByteBuffer.wrap(p);
                    while (b.hasRemaining()) {
                        client.write(b);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static void close(SocketChannel client) {
        try {
            client.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
