package io.xferbench.core.method.send;

import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.uring.UringDepth;
import io.xferbench.core.uring.UringFileSender;

/**
 * The io_uring engine of this suite (core.uring) over Netty's public io_uring API: IORING_OP_READ of the file into
 * several buffers in flight at 64-bit offsets, and the ready chunks sent in order, one IORING_OP_SENDMSG per batch.
 */
public final class IoUringReadSendSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("io-uring-read-send",
            "io_uring IORING_OP_READ into --io-uring-depth buffers in flight + one IORING_OP_SENDMSG per batch of ready chunks, one "
                    + "io_uring_enter(2) per batch, 64-bit offsets (Netty IoUringIoHandle)",
            NettyTransport.IO_URING::availability,
            MethodTraits.twin("uring-read-send").paced().definedBy(MethodTraits.IO_URING_ENTER),
            options -> new UringFileSender(options.bufferSize(), false, false),
            UringDepth::bufferBytes);

    private IoUringReadSendSender() {
    }
}
