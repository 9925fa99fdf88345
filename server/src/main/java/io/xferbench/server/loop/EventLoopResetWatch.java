package io.xferbench.server.loop;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.unix.UnixChannel;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.TcpInfo;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * While an event-loop connection's reading is paused or an upload's body arrives, asks the socket every
 * {@link #CHECK_MILLIS} whether the client reset it, and closes it if so. On io_uring nothing else told: a reset while
 * reads were paused for the pool's write was not reported by Netty 4.2.18, neither then (with reads paused it either
 * has no read in flight, or drains the last bytes on POLLRDHUP and stops once the socket is empty, before the read
 * that would fail with ECONNRESET) nor after reading resumed; the upload's temp file, descriptors and connection slot
 * were held to its transfer deadline. Epoll reports the reset itself (the connection's exceptionCaught), so its
 * connections do not look ({@link EventLoopTransport#reportsResets}). One getsockopt per check. Loop only.
 */
final class EventLoopResetWatch {
    /** How often a connection whose reading is paused is checked for a reset. */
    private static final long CHECK_MILLIS = 200;

    private final ChannelHandlerContext ctx;
    /** Whether this transport needs the watch (one timer task and getsockopt every 200 ms). */
    private final boolean needed;
    /** Whether the connection still waits on the client: its reading is paused or a body arrives. */
    private final BooleanSupplier waiting;
    /** Told of a reset before the close. */
    private final Consumer<String> peerLeft;
    /** A check is scheduled. */
    private boolean scheduled;

    EventLoopResetWatch(ChannelHandlerContext ctx, boolean needed, BooleanSupplier waiting, Consumer<String> peerLeft) {
        this.ctx = ctx;
        this.needed = needed;
        this.waiting = waiting;
        this.peerLeft = peerLeft;
    }

    /** Checks from now on, while the connection waits on the client (once per connection at a time). */
    void watch() {
        if (scheduled || !needed) {
            return;
        }
        scheduled = true;
        ctx.executor().schedule(() -> {
            scheduled = false;
            if (!waiting.getAsBoolean() || !ctx.channel().isActive()) {
                return;
            }
            if (resetByPeer(ctx)) {
                peerLeft.accept("connection reset by peer");
                ctx.close();
                return;
            }
            watch();
        }, CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static boolean resetByPeer(ChannelHandlerContext context) {
        if (!NativeSupport.available() || !(context.channel() instanceof UnixChannel unix)) {
            return false;
        }
        try {
            return TcpInfo.closed(unix.fd().intValue());
        } catch (NativeException e) {
            return false;
        }
    }
}
