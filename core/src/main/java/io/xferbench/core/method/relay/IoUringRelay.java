package io.xferbench.core.method.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedRelayMethod;
import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.netty.NettyTransport;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * Netty io_uring ByteBuf relay, the classic Netty proxy: both sockets on one io_uring event loop, auto-read off;
 * each received buffer (IORING_OP_RECV into a pooled direct ByteBuf) is written to the other side (IORING_OP_WRITE)
 * and the next receive on its side is asked for only when that write has completed, which is the back-pressure.
 * One kernel copy in, one out, no user-space copy.
 */
public final class IoUringRelay implements Relay {
    public static final RelayMethod METHOD = new DefinedRelayMethod("io-uring",
            "Netty io_uring ByteBuf relay on one event loop: IORING_OP_RECV into a pooled direct buffer -> IORING_OP_WRITE to the other socket, next recv after the write",
            NettyTransport.IO_URING::availability, MethodTraits.PLAIN.definedBy(MethodTraits.IO_URING_ENTER), options -> new IoUringRelay(),
            RelayMethod::noOwnBuffers);

    private IoUringRelay() {
    }

    @Override
    public Relayed relay(SocketChannel client, SocketChannel upstream) throws IOException {
        EventLoop loop = NettyTransport.IO_URING.group().next();
        Consumer<Channel> setup = c -> c.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        Channel c = NettyTransport.IO_URING.wrap(client, setup);
        Channel u;
        try {
            u = NettyTransport.IO_URING.wrap(upstream, setup);
        } catch (IOException | RuntimeException e) {
            c.unsafe().closeForcibly();
            throw e;
        }
        NettyRelaySession session = new NettyRelaySession(loop, c, u);
        Forward toUpstream = new Forward(u, session);
        Forward toClient = new Forward(c, session);
        c.pipeline().addLast(toUpstream, session.endOf(c, u));
        u.pipeline().addLast(toClient, session.endOf(u, c));
        session.register(() -> {
            c.read();
            u.read();
        });
        session.await();
        return new Relayed(toUpstream.bytes, toClient.bytes);
    }

    /** Writes what its channel receives to {@code to}; reads again once the write is done. */
    private static final class Forward extends ChannelInboundHandlerAdapter {
        private final Channel to;
        private final NettyRelaySession session;
        private boolean readSomething;
        volatile long bytes;

        Forward(Channel to, NettyRelaySession session) {
            this.to = to;
            this.session = session;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            readSomething = true;
            bytes += ((ByteBuf) msg).readableBytes();
            to.writeAndFlush(msg).addListener(f -> {
                if (f.isSuccess()) {
                    ctx.read();
                } else {
                    session.fail(f.cause());
                }
            });
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            // A round that delivered nothing (the socket had no data after all) asks again itself; a round that
            // delivered a buffer asks again when its write completes.
            if (!readSomething) {
                ctx.read();
            }
            readSomething = false;
        }
    }
}
