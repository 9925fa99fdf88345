package io.xferbench.server.limits;

import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.SocketQueues;
import io.xferbench.nativeio.TcpInfo;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * Whether a transfer's body stalled: no byte moved for the idle timeout. What moved is the kernel's count for the
 * socket ({@link TcpInfo#bytesMoved}: bytes the client acknowledged plus bytes received), looked at by the deadline's
 * timer a few times per limit, never by the transfer: most methods move bytes inside the kernel (sendfile, splice,
 * io_uring), where no counter of ours sees them. A look is one getsockopt(2) per quarter of the limit per connection
 * moving a body, none for a body shorter than that. A count that cannot be read is never a stall; the transfer's
 * deadline (idle timeout + size / --min-rate) still bounds it. Nor is a standstill while received bytes wait for the
 * server and nothing the server sent waits for the client ({@link SocketQueues}, two ioctls beside each look's
 * getsockopt): then the server is behind (an upload's chunk queued for a busy file pool), not the client. A client
 * that pipelines a request and stops reading leaves the server's bytes unacknowledged, so its stall is still its own;
 * a download the server stops feeding while nothing is queued either way (a disk stalled for the whole idle timeout)
 * counts as a stall too: the socket alone cannot tell it from a client gone quiet with its window empty.
 *
 * <p>Not thread-safe: the registry's entry guards it, an event loop's deadline is confined to its loop.
 */
public final class StallWatch {
    public static final long UNREADABLE = -1;
    /** Received bytes waited for the server while none it sent waited for the client: not the client's stall. */
    static final long SERVER_BEHIND = -2;
    private static final boolean READABLE = NativeSupport.available() && Fds.unavailableReason() == null;

    /** 0: not watching. */
    private long limitNanos;
    private long moved;
    private long movedSeenNanos;
    private long nextLookNanos;

    /** A body starts moving at {@code now}; it stalls once nothing moved for {@code limit}. */
    public void start(long now, Duration limit) {
        limitNanos = Math.max(1, Math.min(limit.toNanos(), Long.MAX_VALUE / 4));
        moved = UNREADABLE;
        movedSeenNanos = now;
        nextLookNanos = now + lookInterval();
    }

    /** The body is through (or the request over): no more looks. */
    public void stop() {
        limitNanos = 0;
    }

    public boolean watching() {
        return limitNanos > 0;
    }

    /** When the count is due to be looked at next. */
    public long nextLookNanos() {
        return nextLookNanos;
    }

    public long limitNanos() {
        return limitNanos;
    }

    /**
     * A look at {@code now} found {@code count}: whether nothing moved for the limit. Never earlier than a full limit
     * after the last byte seen moving, and, once looks are regular, at most two look intervals later.
     */
    public boolean stalled(long now, long count) {
        nextLookNanos = now + lookInterval();
        if (count < 0 || count != moved) {
            moved = count;
            movedSeenNanos = now;
            return false;
        }
        return now - movedSeenNanos >= limitNanos;
    }

    private long lookInterval() {
        return Math.max(1, limitNanos / 4);
    }

    /** The socket's count of bytes moved, or {@link #UNREADABLE}. */
    public static long count(int fd) {
        if (!READABLE) {
            return UNREADABLE;
        }
        try {
            long count = TcpInfo.bytesMoved(fd);
            return SocketQueues.unread(fd) > 0 && SocketQueues.unacknowledged(fd) == 0 ? SERVER_BEHIND : count;
        } catch (NativeException e) {
            return UNREADABLE;
        }
    }

    /** As {@link #count(int)}; the caller keeps {@code socket} open meanwhile. */
    public static long count(SocketChannel socket) {
        if (!READABLE) {
            return UNREADABLE;
        }
        try {
            return count(Fds.of(socket));
        } catch (RuntimeException e) {
            return UNREADABLE;
        }
    }
}
