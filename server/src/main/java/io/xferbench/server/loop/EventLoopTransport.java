package io.xferbench.server.loop;

import io.netty.channel.ChannelOption;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.xferbench.core.method.Availability;
import io.xferbench.core.netty.IoUringWorkers;
import io.xferbench.core.netty.NettyNativeWorkdir;

/**
 * The Netty transport under an event-loop model ({@link EventLoopServer}): everything else about the model is the
 * same, but how a download's body goes out ({@link #copiedBodyLimit}). io_uring rings get the server's io-wq worker cap
 * ({@code --io-uring-max-workers}) and ring size ({@code --io-uring-ring-size}).
 */
public enum EventLoopTransport {
    /** Every body a file region: one sendfile(2) on the loop, no copy in user space. */
    EPOLL("netty-epoll", EpollServerSocketChannel.class, 0, true, false, LookupPlacement.POOL, EpollChannelOption.TCP_CORK) {
        @Override
        public Availability availability() {
            NettyNativeWorkdir.loadNatives();
            return Epoll.isAvailable() ? Availability.AVAILABLE
                    : Availability.unavailable("Netty epoll is unavailable: " + Epoll.unavailabilityCause());
        }

        @Override
        IoHandlerFactory handlerFactory() {
            return EpollIoHandler.newFactory();
        }
    },
    /**
     * A file region here is Netty's {@code IoUringFileRegion}: a pipe2(2) per body, then splice file to pipe and pipe
     * to socket, and io_uring runs every SPLICE on an io-wq worker thread (the kernel never tries it inline), so a
     * body cost two hand-offs to kernel threads, two more trips round the ring and three descriptor syscalls. A small
     * body goes by sendfile(2) from the loop behind a MSG_MORE head ({@link LoopSendfile}), as on epoll; what the
     * socket does not take, or the whole body where the shim is missing, is read into a buffer (one pread on the
     * loop) and written through the ring.
     */
    IO_URING("netty-io-uring", IoUringServerSocketChannel.class, 128 * 1024, false, true, LookupPlacement.RING, IoUringChannelOption.TCP_CORK) {
        @Override
        public Availability availability() {
            NettyNativeWorkdir.loadNatives();
            return IoUring.isAvailable() ? Availability.AVAILABLE
                    : Availability.unavailable("Netty io_uring is unavailable: " + IoUring.unavailabilityCause());
        }

        @Override
        IoHandlerFactory handlerFactory() {
            return IoUringIoHandler.newFactory(IoUringWorkers.handlerConfig().setRingSize(EventLoopRingSize.entries()));
        }
    };

    static {
        // Before Netty's loader reads its workdir: the constants above name option constants, which load no library.
        NettyNativeWorkdir.claim();
    }

    /** The model's id on {@code --io-model}. */
    public final String model;
    final Class<? extends ServerChannel> serverChannel;
    /**
     * The largest download body sent from the loop itself (by {@link #loopSendfile}, else read into a buffer and
     * written with its header); larger ones (and all, at 0) go as a file region. Bounded so that a connection holds at
     * most this much buffer while its body is sent.
     */
    public final int copiedBodyLimit;
    /**
     * A head followed by a file region is sent straight to the socket with MSG_MORE ({@link EventLoopAnswerHead}), so
     * it leaves with the body. Not on io_uring, whose regions are spliced through the ring (the head before them must
     * go through it too); its small bodies' heads go with MSG_MORE under {@link #loopSendfile}.
     */
    public final boolean headWithMore;
    /**
     * A body up to {@link #copiedBodyLimit} goes by sendfile(2) from the loop, its head with MSG_MORE before it
     * ({@link LoopSendfile}); not on epoll, where every body is a region and a region is sendfile already.
     */
    public final boolean loopSendfile;

    /** Where the model named {@link #model} (not its {@code -inline} variant) looks files up (see {@link LookupPlacement}). */
    public final LookupPlacement lookupPlacement;

    /** The transport's TCP_CORK option, set while a download's answer is written ({@code --cork-responses}). */
    public final ChannelOption<Boolean> cork;

    /**
     * The transport reports a client's reset itself, paused reads or not (epoll); io_uring in Netty 4.2.18 does not,
     * so its connections look for one ({@link EventLoopResetWatch}).
     */
    public boolean reportsResets() {
        return this == EPOLL;
    }

    EventLoopTransport(String model, Class<? extends ServerChannel> serverChannel, int copiedBodyLimit, boolean headWithMore,
                       boolean loopSendfile, LookupPlacement lookupPlacement, ChannelOption<Boolean> cork) {
        this.model = model;
        this.cork = cork;
        this.serverChannel = serverChannel;
        this.copiedBodyLimit = copiedBodyLimit;
        this.headWithMore = headWithMore;
        this.loopSendfile = loopSendfile;
        this.lookupPlacement = lookupPlacement;
    }

    public abstract Availability availability();

    abstract IoHandlerFactory handlerFactory();
}
