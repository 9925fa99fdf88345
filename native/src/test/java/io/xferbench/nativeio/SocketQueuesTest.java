package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@link SocketQueues}: what waits to be read on one side, and what the other side has not had acknowledged. */
class SocketQueuesTest {
    @Test
    void countsWhatWaitsToBeReadAndWhatWaitsForTheReader() throws Exception {
        try (LoopbackPair pair = LoopbackPair.open(64 * 1024)) {
            int server = Fds.of(pair.accepted());
            assertThat(SocketQueues.unread(server)).isZero();
            assertThat(SocketQueues.unacknowledged(server)).isZero();
            pair.client().write(ByteBuffer.allocate(1000));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (SocketQueues.unread(server) < 1000 && System.nanoTime() < deadline) {
                Thread.sleep(10); // loopback delivers at once; waited for in case it did not
            }
            assertThat(SocketQueues.unread(server)).isEqualTo(1000);
            ByteBuffer in = ByteBuffer.allocate(1000);
            while (in.hasRemaining()) {
                pair.accepted().read(in);
            }
            assertThat(SocketQueues.unread(server)).isZero();

            // The client stops reading: what the server writes past both windows stays unacknowledged.
            pair.accepted().configureBlocking(false);
            ByteBuffer out = ByteBuffer.allocate(4 << 20);
            while (pair.accepted().write(out) > 0) {
                // fill the client's receive buffer and the server's send buffer
            }
            assertThat(SocketQueues.unacknowledged(server)).isPositive();
        }
    }
}
