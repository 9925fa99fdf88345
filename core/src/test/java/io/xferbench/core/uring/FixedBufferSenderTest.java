package io.xferbench.core.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import io.xferbench.nativeio.uring.PinnedMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** READ_FIXED + SEND / SEND_ZC on the suite's own ring: exact bytes in order, past 4 GiB, and nothing left after a reset. */
@Timeout(60)
class FixedBufferSenderTest {
    @TempDir
    Path dir;

    /** Ranges off chunk boundaries, shorter than one chunk and longer than all buffers together, on one connection. */
    @ParameterizedTest(name = "zeroCopy={0}")
    @ValueSource(booleans = {false, true})
    void sendsExactRangesInOrder(boolean zeroCopy) throws Exception {
        assumeAvailable(zeroCopy);
        TestFile file = new DataDirectory(dir).generated((3 << 20) + 4097);
        long[][] ranges = {{0, file.size()}, {4095, 1}, {12345, (1 << 20) + 7}, {file.size() - 1, 1}, {100, 0}};
        try (Loopback link = Loopback.open();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ);
             FixedBufferSender sender = new FixedBufferSender(65536 + 3, 4, zeroCopy)) {
            SourceFile source = new SourceFile(file.path(), ch, file.size());
            for (long[] r : ranges) {
                CompletableFuture<Integer> crc = LoopbackBodies.receive(link.client, r[1]);
                sender.send(source, r[0], r[1], link.accepted);
                assertThat(crc.get()).as("range %d+%d", r[0], r[1]).isEqualTo(LoopbackBodies.crcOf(ch, r[0], r[1]));
            }
        }
    }

    /** Buffers past the memlock limit (decided on an injected limit): refused before the head, with the limit named. */
    @Test
    void buffersPastTheMemlockLimitAreRefusedBeforeTheHead() throws Exception {
        try (FixedBufferSender sender = new FixedBufferSender(1 << 20, 32, false)) {
            assertThat(sender.pinningRefusal(new PinnedMemory(false, 8L << 20)))
                    .contains("RLIMIT_MEMLOCK", "CAP_IPC_LOCK");
            assertThat(sender.pinningRefusal(new PinnedMemory(false, 32L << 20))).isNull();
        }
    }

    /** A sparse file: its data past 4 GiB, read at 64-bit offsets (an offset cut to 32 bits reads the hole's zeros). */
    @ParameterizedTest(name = "zeroCopy={0}")
    @ValueSource(booleans = {false, true})
    void readsPastFourGiB(boolean zeroCopy) throws Exception {
        assumeAvailable(zeroCopy);
        long base = (4L << 30) + 12345;
        byte[] data = new byte[(1 << 20) + 3];
        ThreadLocalRandom.current().nextBytes(data);
        Path file = dir.resolve("sparse");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(data), base);
            try (Loopback link = Loopback.open(); FixedBufferSender sender = new FixedBufferSender(1 << 16, 3, zeroCopy)) {
                CompletableFuture<Integer> crc = LoopbackBodies.receive(link.client, data.length);
                sender.send(new SourceFile(file, ch, ch.size()), base, data.length, link.accepted);
                assertThat(crc.get()).isEqualTo(LoopbackBodies.crcOf(ch, base, data.length));
            }
        }
    }

    /** A client that resets mid-body fails the send, and the ring is gone at once: no ring descriptor is left. */
    @ParameterizedTest(name = "zeroCopy={0}")
    @ValueSource(booleans = {false, true})
    void aResetMidBodyFailsAndTearsTheRingDown(boolean zeroCopy) throws Exception {
        assumeAvailable(zeroCopy);
        TestFile file = new DataDirectory(dir).generated(64 << 20);
        long ringsBefore = rings();
        try (Loopback link = Loopback.open();
             FileChannel ch = FileChannel.open(file.path(), StandardOpenOption.READ);
             FixedBufferSender sender = new FixedBufferSender(1 << 16, 4, zeroCopy)) {
            link.client.setOption(StandardSocketOptions.SO_LINGER, 0);
            CompletableFuture<Void> reset = CompletableFuture.runAsync(() -> {
                try {
                    link.client.read(ByteBuffer.allocate(1 << 16));
                    link.client.close(); // SO_LINGER 0: an RST, the sender's next send fails
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThatThrownBy(() -> sender.send(new SourceFile(file.path(), ch, file.size()), 0, file.size(), link.accepted))
                    .isInstanceOf(IOException.class).hasMessageContaining("SEND");
            reset.get();
            assertThat(rings()).as("ring descriptors after the failed transfer").isEqualTo(ringsBefore);
        }
    }

    private static void assumeAvailable(boolean zeroCopy) {
        Availability a = zeroCopy ? OwnRingAvailability.fixedSendZeroCopy() : OwnRingAvailability.fixedSend();
        MethodAssumptions.assumeAvailable(zeroCopy ? "uring-fixed-send-zc" : "uring-fixed-send", a);
    }

    private static long rings() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().contains("io_uring");
                } catch (IOException e) {
                    return false; // closed while listed
                }
            }).count();
        }
    }

    private record Loopback(ServerSocketChannel listener, SocketChannel client, SocketChannel accepted) implements AutoCloseable {
        static Loopback open() throws IOException {
            ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open(listener.getLocalAddress());
            return new Loopback(listener, client, listener.accept());
        }

        @Override
        public void close() throws IOException {
            try (listener; client; accepted) {
                // all three closed
            }
        }
    }
}
