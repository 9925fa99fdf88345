package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.netty.NettyFileRegionSender;
import io.xferbench.core.netty.NettyTransport;

/**
 * Netty io_uring writing a {@code DefaultFileRegion}: IORING_OP_SPLICE file → pipe → socket, submitted with
 * io_uring_enter(2). Netty 4.2.18's {@code IoUringFileRegion} casts both the length and the file offset to
 * int, so regions are cut below 2 GiB and no byte at a file offset >= 2 GiB can be sent correctly; such
 * requests are refused rather than answered with wrong bytes.
 */
public final class IoUringSpliceSender {
    /** Largest int-safe region and offset in Netty 4.2.18's io_uring FileRegion. */
    static final long INT_LIMIT = Integer.MAX_VALUE;

    public static final SenderMethod METHOD = new DefinedSenderMethod("io-uring",
            "Netty io_uring DefaultFileRegion: IORING_OP_SPLICE file -> pipe -> socket via io_uring_enter(2); < 2 GiB offsets in Netty 4.2.18",
            NettyTransport.IO_URING::availability,
            MethodTraits.twin("uring-splice").paced().definedBy(MethodTraits.IO_URING_ENTER),
            options -> new NettyFileRegionSender(NettyTransport.IO_URING, INT_LIMIT, INT_LIMIT,
                    "Netty 4.2.18 IoUringFileRegion casts the file offset to int"));

    private IoUringSpliceSender() {
    }
}
