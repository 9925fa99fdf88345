package io.xferbench.core.method.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.Promise;
import io.xferbench.core.netty.NettyFutures;
import io.xferbench.core.netty.NettyTransport;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.SocketChannel;

/**
 * The life of one relayed connection between two Netty channels on one event loop: when a side's input ends
 * (ChannelInputShutdownEvent, channels run with ALLOW_HALF_CLOSURE), an empty write is queued behind whatever is
 * still pending towards the other side and, once it is flushed, the other side's output is shut down; when both
 * directions have ended the session is done. Any error or unexpected close ends it at once. Either way both
 * channels are closed at the end.
 */
final class NettyRelaySession {
    private static final int TAIL_CHUNK = 64 * 1024;
    private final EventLoop loop;
    private final Channel client;
    private final Channel upstream;
    private final Promise<Void> done;
    private int ended;

    /** For two channels {@link NettyTransport#wrap wrapped} but not registered yet; both go on {@code loop}. */
    NettyRelaySession(EventLoop loop, Channel client, Channel upstream) {
        this.loop = loop;
        this.client = client;
        this.upstream = upstream;
        this.done = loop.newPromise();
    }

    /**
     * Registers both channels with the loop at once, after their handlers were added, and runs {@code start} (which
     * starts reading) in the same loop task: the first poll may already report bytes or a FIN that arrived before
     * the relay started, and must find the relay complete.
     */
    void register(Runnable start) throws IOException {
        NettyTransport.registerTogether(loop, start, client, upstream);
    }

    /** The handler to add to {@code from}'s pipeline, last. */
    EndHandler endOf(Channel from, Channel to) {
        return new EndHandler(to, null);
    }

    /**
     * Like {@link #endOf(Channel, Channel)}, for a source whose end-of-input event may come before all of its
     * bytes were read (Netty epoll's splice path): when the event comes, what is still queued in front of the FIN
     * is read from {@code tail} (the non-blocking JDK socket of {@code from}, same kernel socket) and written to
     * {@code to} before the end of stream is forwarded.
     */
    EndHandler endOf(Channel from, Channel to, SocketChannel tail) {
        return new EndHandler(to, tail);
    }

    void fail(Throwable cause) {
        if (done.tryFailure(cause)) {
            closeBoth();
        }
    }

    /** Waits for the end of the connection, then closes both channels. */
    void await() throws IOException {
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeBoth();
            throw new InterruptedIOException("interrupted while relaying");
        }
        closeBoth();
        if (!done.isSuccess()) {
            Throwable cause = done.cause();
            throw cause instanceof IOException io ? io : new IOException("relay failed: " + cause, cause);
        }
    }

    private void closeBoth() {
        if (loop.inEventLoop()) {
            client.close(); // never wait on the loop itself
            upstream.close();
        } else {
            NettyFutures.closeQuietly(client);
            NettyFutures.closeQuietly(upstream);
        }
    }

    private void directionEnded() {
        // On the event loop: both channels are registered with the same one.
        if (++ended == 2) {
            done.trySuccess(null);
        }
    }

    /** Forwards the end of {@code from}'s input to {@code to}, after everything queued before it; reports errors. */
    class EndHandler extends ChannelInboundHandlerAdapter {
        private final Channel to;
        private final SocketChannel tail;
        volatile long tailBytes;

        EndHandler(Channel to, SocketChannel tail) {
            this.to = to;
            this.tail = tail;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt instanceof ChannelInputShutdownEvent) {
                stopReading(ctx.channel());
                if (tail != null) {
                    try {
                        forwardTail();
                    } catch (IOException e) {
                        fail(e);
                        return;
                    }
                }
                to.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed -> {
                    // Netty epoll's SpliceOutTask turns auto-read back on when a splice queued before the end completes.
                    stopReading(ctx.channel());
                    if (!flushed.isSuccess()) {
                        fail(flushed.cause());
                        return;
                    }
                    ((DuplexChannel) to).shutdownOutput().addListener(shut -> {
                        if (shut.isSuccess()) {
                            directionEnded();
                        } else {
                            fail(shut.cause());
                        }
                    });
                });
            }
            super.userEventTriggered(ctx, evt);
        }

        /**
         * The input has ended: no more reading. Netty 4.2.18's epoll splice path leaves EPOLLIN armed on a half-closed
         * auto-read channel (only its ByteBuf read path records that the input was read to the end), and a shut-down
         * input is always readable, so a level-triggered loop would splice 0 bytes in a busy loop until the
         * connection closes: hundreds of splice and epoll_pwait2 calls per request (RelayHalfCloseIdleTest).
         */
        private void stopReading(Channel channel) {
            channel.config().setAutoRead(false);
        }

        /** The peer's FIN has arrived, so every byte before it is queued: read until end of stream. */
        private void forwardTail() throws IOException {
            while (true) {
                ByteBuf buf = to.alloc().directBuffer(TAIL_CHUNK);
                int n;
                try {
                    n = buf.writeBytes(tail, TAIL_CHUNK);
                } catch (IOException | RuntimeException e) {
                    buf.release();
                    throw e;
                }
                if (n <= 0) {
                    buf.release();
                    return; // -1: end of stream; 0: nothing queued (cannot happen after the FIN, but never spin)
                }
                tailBytes += n;
                to.write(buf).addListener(f -> {
                    if (!f.isSuccess()) {
                        fail(f.cause());
                    }
                });
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(new IOException("relay channel " + ctx.channel() + " closed before both directions ended"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            fail(cause);
        }
    }
}
