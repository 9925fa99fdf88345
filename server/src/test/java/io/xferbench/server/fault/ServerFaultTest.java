package io.xferbench.server.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelException;
import io.netty.channel.socket.ChannelOutputShutdownException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NotYetConnectedException;
import org.junit.jupiter.api.Test;

class ServerFaultTest {
    @Test
    void aSocketsFailureIsNotTheServers() {
        assertThat(ServerFault.of(new IOException("Connection reset by peer"))).isNull();
        assertThat(ServerFault.of(new ClosedChannelException())).isNull();
        assertThat(ServerFault.of(new ChannelOutputShutdownException("shut", new NotYetConnectedException()))).isNull();
        // As Netty builds it when a socket option cannot be set on a socket the peer closed.
        assertThat(ServerFault.of(new ChannelException(new IOException("setsockopt: Bad file descriptor")))).isNull();
    }

    @Test
    void theServersOwnIsFoundWrappedOrNot() {
        IllegalStateException bug = new IllegalStateException("bug");
        assertThat(ServerFault.of(bug)).isSameAs(bug);
        assertThat(ServerFault.of(new ChannelOutputShutdownException("Channel output shutdown", bug))).isSameAs(bug);
        assertThat(ServerFault.of(new IOException("Netty epoll send failed: " + bug, bug))).isSameAs(bug);
        NoClassDefFoundError missing = new NoClassDefFoundError("x/Y");
        Throwable closed = new ClosedChannelException().initCause(missing);
        assertThat(ServerFault.of(closed)).isSameAs(missing);
    }

    @Test
    void nettysUncheckedWrappersAreTheServersUnlessTheyHoldASocketsFailure() {
        // A ring that cannot be entered is the server's, though it comes as an UncheckedIOException.
        UncheckedIOException ring = new UncheckedIOException(new IOException("io_uring_enter: EBADF"));
        assertThat(ServerFault.of(ring)).isSameAs(ring);
        ChannelException noBytes = new ChannelException("FileRegion.transferTo(...) produced 0 bytes");
        assertThat(ServerFault.of(noBytes)).isSameAs(noBytes);
    }
}
