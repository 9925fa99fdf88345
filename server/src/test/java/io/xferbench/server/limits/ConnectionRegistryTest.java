package io.xferbench.server.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.testing.CapturedLog;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watchdog ends a connection from outside by shutting its socket down and interrupting its thread, and leaves
 * the descriptor to that thread: a close from here could free the fd number while a native-shim method is between
 * two syscalls on it.
 */
@Timeout(30)
class ConnectionRegistryTest {
    private ServerSocketChannel listener;
    private SocketChannel peer;
    private SocketChannel socket;
    private ConnectionRegistry registry;

    @BeforeEach
    void connect() throws Exception {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
        peer = SocketChannel.open(listener.getLocalAddress());
        socket = listener.accept();
        registry = new ConnectionRegistry();
    }

    @AfterEach
    void close() throws Exception {
        registry.close();
        socket.close();
        peer.close();
        listener.close();
    }

    @Test
    void aConnectionPastItsDeadlineIsShutDownAndInterruptedButItsDescriptorStaysItsThreads() throws Exception {
        registry.add(1, socket);
        registry.enter(1, ConnectionRegistry.State.BUSY, Duration.ofMillis(1));

        assertThatThrownBy(() -> Thread.sleep(20_000)).as("the reaper interrupts the connection's thread")
                .isInstanceOf(InterruptedException.class);
        assertThat(socket.isOpen()).as("the descriptor is still the connection's").isTrue();
        assertThat(peer.read(ByteBuffer.allocate(1))).as("the peer sees the end of stream").isEqualTo(-1);
        assertThat(socket.read(ByteBuffer.allocate(1))).as("the connection's reads end").isEqualTo(-1);
        registry.remove(1);
    }

    @Test
    void aLingerPastItsDeadlineIsLoggedAsOne() throws Exception {
        try (CapturedLog log = CapturedLog.of(ConnectionRegistry.class.getName())) {
            registry.add(3, socket);
            registry.enter(3, ConnectionRegistry.State.LINGERING, Duration.ofMillis(1));

            assertThatThrownBy(() -> Thread.sleep(20_000)).isInstanceOf(InterruptedException.class);
            assertThat(log.messages()).containsExactly("conn 3: closed after its linger passed");
            registry.remove(3);
        }
    }

    @Test
    void shutdownEndsIdleConnectionsTheSameWay() throws Exception {
        registry.add(2, socket);
        registry.enter(2, ConnectionRegistry.State.AWAITING_REQUEST, Duration.ofHours(1));

        registry.closeIdle();

        assertThat(registry.stopping()).isTrue();
        assertThat(socket.isOpen()).isTrue();
        assertThat(socket.read(ByteBuffer.allocate(1))).isEqualTo(-1);
        assertThat(peer.read(ByteBuffer.allocate(1))).isEqualTo(-1);
        registry.remove(2);
    }
}
