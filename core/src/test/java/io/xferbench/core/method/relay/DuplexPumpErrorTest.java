package io.xferbench.core.method.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pump that dies of an Error (the copy relay's direct buffer past -XX:MaxDirectMemorySize) must end the relay as an
 * IOException does: the other direction, blocked reading a quiet client, is stopped, and the client sees the end.
 */
class DuplexPumpErrorTest {

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void anErrorOnTheHelperThreadAbortsTheRelay() throws Exception {
        assertAborts(DuplexPumpErrorTest::blockingCopy, DuplexPumpErrorTest::outOfMemory);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void anErrorOnTheCallersThreadAbortsTheRelay() throws Exception {
        assertAborts(DuplexPumpErrorTest::outOfMemory, DuplexPumpErrorTest::blockingCopy);
    }

    private static void assertAborts(DuplexPump.OneWay clientToUpstream, DuplexPump.OneWay upstreamToClient) throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel clientPeer = SocketChannel.open(listener.getLocalAddress());
             SocketChannel client = listener.accept();
             SocketChannel upstream = SocketChannel.open(listener.getLocalAddress());
             SocketChannel upstreamPeer = listener.accept()) {
            // Neither peer sends anything: the surviving pump blocks in read until the relay is aborted.
            assertThatThrownBy(() -> DuplexPump.run(client, upstream, clientToUpstream, upstreamToClient))
                    .isInstanceOf(IOException.class)
                    .hasCauseInstanceOf(OutOfMemoryError.class);
            assertThat(clientPeer.read(ByteBuffer.allocate(1))).as("the client sees the end of the relay").isEqualTo(-1);
        }
    }

    private static long outOfMemory(SocketChannel from, SocketChannel to) {
        throw new OutOfMemoryError("Cannot reserve 67108864 bytes of direct buffer memory (test)");
    }

    private static long blockingCopy(SocketChannel from, SocketChannel to) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(1024);
        long total = 0;
        while (from.read(buffer.clear()) >= 0) {
            buffer.flip();
            total += buffer.remaining();
            while (buffer.hasRemaining()) {
                to.write(buffer);
            }
        }
        return total;
    }
}
