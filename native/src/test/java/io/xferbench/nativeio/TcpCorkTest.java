package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class TcpCorkTest {
    @Test
    void threeWritesWhileCorkedArriveAsOneSegment() throws Exception {
        NativeAssumptions.assumeAvailable("TCP_CORK", NativeSupport.available(), NativeSupport.unavailableReason());
        try (LoopbackPair pair = LoopbackPair.open(1 << 20)) {
            pair.accepted().setOption(StandardSocketOptions.TCP_NODELAY, true);
            assertThat(TcpCork.isSet(pair.accepted())).isFalse();
            long before = TcpInfo.dataSegmentsIn(pair.client());
            sendThreeParts(pair);
            long plain = TcpInfo.dataSegmentsIn(pair.client()) - before;

            // The kernel sends a corked partial segment after 200 ms anyway: a stall that long between the writes
            // (a loaded machine) splits it, so the corked send gets three tries.
            long corked = Long.MAX_VALUE;
            for (int attempt = 0; attempt < 3 && corked != 1; attempt++) {
                TcpCork.set(pair.accepted(), true);
                assertThat(TcpCork.isSet(pair.accepted())).isTrue();
                before = TcpInfo.dataSegmentsIn(pair.client());
                for (int i = 0; i < 3; i++) {
                    pair.accepted().write(ByteBuffer.wrap(new byte[100]));
                }
                TcpCork.set(pair.accepted(), false);
                assertThat(TcpCork.isSet(pair.accepted())).isFalse();
                readExactly(pair, 300);
                corked = TcpInfo.dataSegmentsIn(pair.client()) - before;
            }

            assertThat(plain).as("TCP_NODELAY: each write its own segment").isEqualTo(3);
            assertThat(corked).as("corked: the three writes in one segment").isEqualTo(1);
        }
    }

    private static void sendThreeParts(LoopbackPair pair) throws Exception {
        for (int i = 0; i < 3; i++) {
            pair.accepted().write(ByteBuffer.wrap(new byte[100]));
            readExactly(pair, 100);
        }
    }

    private static void readExactly(LoopbackPair pair, int n) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (pair.client().read(b) < 0) {
                throw new java.io.EOFException();
            }
        }
    }
}
