package io.xferbench.core.method.relay;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.epoll.EpollChannelConfig;
import io.netty.channel.epoll.EpollMode;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedRelayMethod;
import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.netty.NettyTransport;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * Netty epoll {@code AbstractEpollStreamChannel.spliceTo(AbstractEpollStreamChannel, Integer.MAX_VALUE)} both
 * ways: both sockets adopted on one event loop (spliceTo demands it), level-triggered, auto-read on. On EPOLLIN
 * the loop splice(2)s socket → the target channel's pipe (created once per target) and queues a splice(2)
 * pipe → target socket as a write, so bytes never enter user space; {@code len == Integer.MAX_VALUE} means
 * "until the channel closes". Netty stops reading from the source while the target cannot take more.
 *
 * <p>Found in Netty 4.2.18: once EPOLLRDHUP (the peer's FIN) has been seen, epollInReady splices at most one
 * receive-allocator guess and then shuts the input down (closing the channel, or with ALLOW_HALF_CLOSURE firing
 * ChannelInputShutdownEvent) even when more bytes are queued in front of the FIN; they would be lost, or spliced
 * after the end of stream was forwarded. So the relay runs with ALLOW_HALF_CLOSURE and, on that event, reads what
 * is still queued through the JDK socket (a user-space copy of the tail only) and writes it out before it
 * shuts down the other side's output. See docs/upload-proxy.md.
 */
public final class EpollSpliceRelay implements Relay {
    public static final RelayMethod METHOD = new DefinedRelayMethod("epoll-splice",
            "Netty epoll spliceTo(channel, Integer.MAX_VALUE) both ways on one event loop: splice(2) socket -> pipe -> socket per EPOLLIN, no user-space copy",
            NettyTransport.EPOLL::availability, MethodTraits.PLAIN.definedBy("splice"), options -> new EpollSpliceRelay(),
            RelayMethod::noOwnBuffers);

    private EpollSpliceRelay() {
    }

    @Override
    public Relayed relay(SocketChannel client, SocketChannel upstream) throws IOException {
        // The duplicates share the JDK sockets' blocking flag, and Netty's epoll loop needs EAGAIN.
        client.configureBlocking(false);
        upstream.configureBlocking(false);
        EventLoop loop = NettyTransport.EPOLL.group().next();
        Consumer<Channel> setup = c -> {
            ((EpollChannelConfig) c.config()).setEpollMode(EpollMode.LEVEL_TRIGGERED);
            c.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        };
        AbstractEpollStreamChannel c = (AbstractEpollStreamChannel) NettyTransport.EPOLL.wrap(client, setup);
        AbstractEpollStreamChannel u;
        try {
            u = (AbstractEpollStreamChannel) NettyTransport.EPOLL.wrap(upstream, setup);
        } catch (IOException | RuntimeException e) {
            c.unsafe().closeForcibly();
            throw e;
        }
        NettyRelaySession session = new NettyRelaySession(loop, c, u);
        c.pipeline().addLast(session.endOf(c, u, client));
        u.pipeline().addLast(session.endOf(u, c, upstream));
        session.register(() -> {
            c.spliceTo(u, Integer.MAX_VALUE).addListener(f -> {
                if (!f.isSuccess()) {
                    session.fail(f.cause());
                }
            });
            u.spliceTo(c, Integer.MAX_VALUE).addListener(f -> {
                if (!f.isSuccess()) {
                    session.fail(f.cause());
                }
            });
            c.config().setAutoRead(true);
            u.config().setAutoRead(true);
        });
        session.await();
        return new Relayed(-1, -1);
    }
}
