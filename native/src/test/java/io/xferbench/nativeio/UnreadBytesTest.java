package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@link UnreadBytes}: what arrived and waits to be read, and nothing once it is read. */
class UnreadBytesTest {
    @Test
    void countsWhatWaitsInTheReceiveQueue() throws Exception {
        try (LoopbackPair pair = LoopbackPair.open(64 * 1024)) {
            assertThat(UnreadBytes.of(Fds.of(pair.accepted()))).isZero();
            pair.client().write(ByteBuffer.allocate(1000));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (UnreadBytes.of(Fds.of(pair.accepted())) < 1000 && System.nanoTime() < deadline) {
                Thread.sleep(10); // loopback delivers at once; waited for in case it did not
            }
            assertThat(UnreadBytes.of(Fds.of(pair.accepted()))).isEqualTo(1000);
            ByteBuffer in = ByteBuffer.allocate(1000);
            while (in.hasRemaining()) {
                pair.accepted().read(in);
            }
            assertThat(UnreadBytes.of(Fds.of(pair.accepted()))).isZero();
        }
    }
}
