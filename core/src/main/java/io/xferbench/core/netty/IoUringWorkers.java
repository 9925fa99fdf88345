package io.xferbench.core.netty;

import io.netty.channel.uring.IoUringIoHandlerConfig;

/**
 * The cap on io-wq worker threads of every io_uring ring the process creates (one ring per event loop of
 * {@link NettyTransport#IO_URING}). io_uring runs an operation that cannot complete inline (a splice, a read of
 * uncached pages, a write to a full pipe) on an io-wq worker thread, and without a cap the kernel adds one per
 * blocked operation: a hundred concurrent splice downloads make a hundred {@code iou-wrk} threads (Netty issue
 * 15125). With the cap, each ring has at most {@code maxPerRing} bounded workers (file and block I/O) and as many
 * unbounded ones (sockets, pipes); further work waits in the ring's queue.
 */
public final class IoUringWorkers {
    /** Per ring and kind: two event loops on a 2-core machine make at most 2 × (4 + 4) workers. */
    public static final int DEFAULT_MAX_PER_RING = 4;

    private static volatile int maxPerRing = DEFAULT_MAX_PER_RING;
    private static volatile boolean ringsCreated;

    private IoUringWorkers() {
    }

    /** Sets the cap; only before the first io_uring ring exists (the server calls it at startup). */
    public static synchronized void limit(int max) {
        if (max <= 0) {
            throw new IllegalArgumentException("io-wq worker cap must be positive, got " + max);
        }
        if (ringsCreated && max != maxPerRing) {
            throw new IllegalStateException("io_uring rings already exist with a cap of " + maxPerRing + " workers");
        }
        maxPerRing = max;
    }

    public static int maxPerRing() {
        return maxPerRing;
    }

    public static synchronized IoUringIoHandlerConfig handlerConfig() {
        ringsCreated = true;
        return new IoUringIoHandlerConfig()
                .setMaxBoundedWorker(maxPerRing)
                .setMaxUnboundedWorker(maxPerRing);
    }
}
