package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.testing.NativeAssumptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SEND and SEND_ZC from a registered buffer put their bytes on the socket; SEND_ZC's notification comes after. */
class UringSendTest {
    private static final int LENGTH = 4097;
    private static final int MSG_WAITALL = 0x100;

    @BeforeEach
    void ring() {
        UringTesting.assumeRing();
    }

    @Test
    void sendPutsTheBytesOnTheSocket() throws Exception {
        byte[] data = UringTesting.bytes(LENGTH, 7);
        ByteBuffer buffer = AlignedBuffers.allocate(LENGTH, 4096).put(data).clear();
        try (Pair pair = Pair.open(); IoUring ring = IoUring.open(RingOptions.plain(4))) {
            ring.sq().send(Fds.of(pair.accepted), false, AlignedBuffers.address(buffer), LENGTH, MSG_WAITALL, 9);
            ring.submitAndWait(1);
            List<int[]> cqes = new ArrayList<>();
            ring.cq().reap((userData, result, flags) -> cqes.add(new int[] {(int) userData, result, flags}));
            assertThat(cqes).hasSize(1);
            assertThat(cqes.get(0)).containsExactly(9, LENGTH, 0);
            assertThat(pair.receive(LENGTH)).isEqualTo(data);
        }
    }

    /**
     * From registered buffer 1, part way in, on a socket registered after another set of files was let go: the send's
     * completion says a notification follows (F_MORE), and the notification (F_NOTIF) comes with the same user data.
     */
    @Test
    void sendZeroCopyFromARegisteredBufferNotifiesAfterTheSend() throws Exception {
        NativeAssumptions.assumeAvailable("registered buffers", UringProbe.here().fixedBuffers() == null,
                UringProbe.here().fixedBuffers());
        byte[] data = UringTesting.bytes(LENGTH, 8);
        ByteBuffer other = AlignedBuffers.allocate(4096, 4096);
        ByteBuffer buffer = AlignedBuffers.allocate(LENGTH + 100, 4096);
        buffer.put(100, data);
        try (Pair pair = Pair.open(); IoUring ring = IoUring.open(RingOptions.plain(4))) {
            ring.registerBuffers(List.of(other, buffer));
            ring.registerFiles(Fds.of(pair.client));
            ring.unregisterFiles();
            ring.registerFiles(Fds.of(pair.client), Fds.of(pair.accepted));
            ring.sq().sendZeroCopyFixed(1, true, AlignedBuffers.address(buffer) + 100, LENGTH, MSG_WAITALL, 1, 5);
            List<int[]> cqes = new ArrayList<>();
            while (cqes.size() < 2) {
                ring.submitAndWait(1);
                ring.cq().reap((userData, result, flags) -> cqes.add(new int[] {(int) userData, result, flags}));
                int first = cqes.get(0)[1];
                NativeAssumptions.assumeAvailable("SEND_ZC", first != -Errno.EINVAL,
                        "IORING_OP_SEND_ZC with IORING_RECVSEND_FIXED_BUF answers EINVAL (Linux < 6.0)");
            }
            assertThat(cqes.get(0)[0]).isEqualTo(5);
            assertThat(cqes.get(0)[1]).isEqualTo(LENGTH);
            assertThat(CompletionQueue.more(cqes.get(0)[2])).as("F_MORE on the send's completion").isTrue();
            assertThat(cqes.get(1)[0]).isEqualTo(5);
            assertThat(CompletionQueue.notification(cqes.get(1)[2])).as("F_NOTIF on the second").isTrue();
            assertThat(pair.receive(LENGTH)).isEqualTo(data);
        }
    }

    private record Pair(ServerSocketChannel listener, SocketChannel client, SocketChannel accepted) implements AutoCloseable {
        static Pair open() throws IOException {
            ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel client = SocketChannel.open(listener.getLocalAddress());
            return new Pair(listener, client, listener.accept());
        }

        byte[] receive(int length) throws IOException {
            ByteBuffer in = ByteBuffer.allocate(length);
            while (in.hasRemaining() && client.read(in) >= 0) {
                // until all arrived
            }
            return in.array();
        }

        @Override
        public void close() throws IOException {
            try (listener; client; accepted) {
                // all three closed
            }
        }
    }
}
