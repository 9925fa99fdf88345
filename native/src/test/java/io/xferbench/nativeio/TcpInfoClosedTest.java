package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@link TcpInfo#closed}: a reset connection is told from a live one and from one the peer only shut down (FIN). */
class TcpInfoClosedTest {
    @Test
    void aResetIsClosedAFinIsNot() throws Exception {
        try (LoopbackPair pair = LoopbackPair.open(64 * 1024)) {
            assertThat(TcpInfo.closed(Fds.of(pair.accepted()))).isFalse();
            pair.client().shutdownOutput();
            assertThat(pair.accepted().read(ByteBuffer.allocate(1))).isEqualTo(-1); // the FIN has arrived
            assertThat(TcpInfo.closed(Fds.of(pair.accepted()))).as("after a FIN").isFalse();
        }
        try (LoopbackPair pair = LoopbackPair.open(64 * 1024)) {
            pair.client().write(ByteBuffer.allocate(1000));
            pair.client().setOption(StandardSocketOptions.SO_LINGER, 0);
            pair.client().close(); // RST
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!TcpInfo.closed(Fds.of(pair.accepted())) && System.nanoTime() < deadline) {
                Thread.sleep(10); // loopback delivers it at once; a final state, waited for in case it did not
            }
            assertThat(TcpInfo.closed(Fds.of(pair.accepted()))).as("after a RST, its data still unread").isTrue();
        }
    }
}
