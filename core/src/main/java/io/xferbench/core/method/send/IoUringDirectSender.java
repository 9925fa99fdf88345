package io.xferbench.core.method.send;

import io.xferbench.core.method.Availability;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.uring.UringDepth;
import io.xferbench.core.uring.UringFileSender;
import io.xferbench.nativeio.NativeSupport;

/**
 * {@link IoUringReadSendSender} reading with O_DIRECT (the file reopened through the JNA shim, buffers and offsets
 * aligned as statx STATX_DIOALIGN says): the reads bypass the page cache, run on io-wq workers when the device
 * is slow, and the buffers in flight hide the device's latency behind the sends.
 */
public final class IoUringDirectSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("io-uring-direct",
            "io_uring O_DIRECT IORING_OP_READ into --io-uring-depth aligned buffers + IORING_OP_SENDMSG per batch",
            () -> !NativeSupport.available() ? Availability.unavailable(NativeSupport.unavailableReason())
                    : NettyTransport.IO_URING.availability(),
            MethodTraits.twin("uring-direct").definedBy(MethodTraits.IO_URING_ENTER),
            options -> new UringFileSender(options.bufferSize(), true, false),
            UringDepth::bufferBytes);

    private IoUringDirectSender() {
    }
}
