package io.xferbench.server.loop;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import io.xferbench.server.limits.ArrivedBytes;
import io.xferbench.server.limits.BusyAnswer;
import io.xferbench.server.limits.ColdPaths;
import io.xferbench.server.limits.RateLimitedLog;
import io.xferbench.server.limits.SpareDescriptor;
import io.xferbench.server.thread.BoundedAcceptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The event-loop models' answer to a failing accept (out of descriptors: EMFILE, ENFILE), as {@link BoundedAcceptor}'s
 * for the thread models. Netty fires each failure down the listener's pipeline: io_uring re-armed the accept at once
 * (100,000 warnings in 5 s, a core busy), epoll paused a second per failure; both logged Netty's "reached the tail of
 * the pipeline" warning each time and left the clients they could not take waiting in the backlog. Here a failure
 * spends the spare descriptor to take one pending client and answer it BUSY in its protocol, or, with no spare, pauses
 * accepting (10 ms doubling to 1 s); failures are logged at most once per 10 s.
 */
final class EventLoopAcceptFailures extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = Logger.getLogger(EventLoopAcceptFailures.class.getName());
    private static final long MIN_BACKOFF_MILLIS = 10;
    private static final long MAX_BACKOFF_MILLIS = 1_000;
    static final String WHY = "server busy: out of file descriptors";

    static {
        ColdPaths.load(); // before descriptors can run out
        Quietly.close(() -> { }); // the loop's close of an opened file when a dup fails with EMFILE
    }

    private final SpareDescriptor spare = new SpareDescriptor();
    // What a refused client had sent, read on the listener's loop only.
    private final ByteBuffer arrived = ByteBuffer.allocateDirect(ArrivedBytes.MAX);
    private final RateLimitedLog failures = new RateLimitedLog(LOG, "server: accept failed", Duration.ofSeconds(10));
    // Touched on the listener's loop only.
    private boolean shedNext;
    private boolean paused;
    private long backoffMillis = MIN_BACKOFF_MILLIS;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        backoffMillis = MIN_BACKOFF_MILLIS;
        if (shedNext && msg instanceof Channel child) {
            shedNext = false;
            // The accept may have waited for this client until descriptors were free again (io_uring's accept is
            // armed in advance): then the spare comes back and the client is served.
            if (!spare.retake()) {
                refuseNow(child);
                spare.retake();
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException e)) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        failures.report(e);
        if (paused) {
            return;
        }
        // Accepting stops until the resume below: Netty would otherwise re-arm the failing accept at once.
        paused = true;
        ctx.channel().config().setAutoRead(false);
        if (!shedNext && spare.release()) {
            shedNext = true; // the next accept gets the spare's descriptor, at once
            ctx.executor().execute(() -> resume(ctx));
            return;
        }
        long wait = backoffMillis;
        backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
        ctx.executor().schedule(() -> {
            // The spare back if descriptors are free again (then the next client is served, not shed).
            shedNext = false;
            spare.retake();
            resume(ctx);
        }, wait, TimeUnit.MILLISECONDS);
    }

    private void resume(ChannelHandlerContext ctx) {
        paused = false;
        ctx.channel().config().setAutoRead(true);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        spare.close();
        ctx.fireChannelInactive();
    }

    /**
     * BUSY at once, in the protocol of what the client had sent by now ({@link ArrivedBytes}), then the close, as the
     * thread models: no descriptor to spare a registration's worth of waiting.
     */
    private void refuseNow(Channel child) {
        if (!(child instanceof UnixChannel unix)) {
            child.unsafe().closeForcibly();
            return;
        }
        FileDescriptor fd = unix.fd();
        try {
            ByteBuffer answer = direct(BusyAnswer.to(ArrivedBytes.take(fd, arrived), WHY));
            fd.write(answer, answer.position(), answer.limit());
        } catch (IOException gone) {
            // The client left already: nothing to tell.
        } finally {
            try {
                fd.close();
            } catch (IOException ignored) {
                // The descriptor is released either way.
            }
        }
    }

    private static ByteBuffer direct(ByteBuffer heap) {
        return ByteBuffer.allocateDirect(heap.remaining()).put(heap).flip();
    }
}
