package io.xferbench.core.netty;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The io_uring event loop the disk-read engines register with: one thread whose submission queue holds
 * {@link #SUBMIT_BATCH} entries, so Netty passes reads to the kernel as they are queued, at most that many per
 * {@code io_uring_enter}, instead of every read that a batch of completions freed in one call at the end of the loop's
 * turn (the socket loops of {@link NettyTransport#IO_URING}, ring of 128). fio's io_uring engine submits each read on
 * its own by default ({@code iodepth_batch_submit=1}). On this suite's virtio-blk disk, random 4 KiB O_DIRECT reads
 * at depth 32 took about 500 µs each in the block layer when submitted in the socket loop's batches, 230–330 µs with
 * this ring, against fio's 180–360 (docs/disk.md, "Submitting in batches").
 */
public final class IoUringReadLoop {
    /** Entries of the loop's submission queue: Netty submits when the queue is full, so this bounds a batch. */
    public static final int SUBMIT_BATCH = 2;

    private static volatile IoEventLoopGroup group;

    private IoUringReadLoop() {
    }

    /** The loop, started on first use (a daemon thread). The caller checks io_uring's availability first. */
    public static IoEventLoop loop() {
        IoEventLoopGroup g = group;
        if (g == null) {
            synchronized (IoUringReadLoop.class) {
                g = group;
                if (g == null) {
                    group = g = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("xferbench-io_uring-read", true),
                            IoUringIoHandler.newFactory(IoUringWorkers.handlerConfig().setRingSize(SUBMIT_BATCH)));
                }
            }
        }
        return g.next();
    }
}
