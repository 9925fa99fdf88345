package io.xferbench.server;

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
        assertThat(ServerFault.of(new IOException("x", new UncheckedIOException(new IOException("epoll_ctl"))))).isNull();
        assertThat(ServerFault.of(new ChannelException("TCP_CORK on a closed socket"))).isNull();
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
}
