package io.xferbench.core.method.send;

import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.uring.FixedBufferSender;
import io.xferbench.core.uring.OwnRingAvailability;
import io.xferbench.core.uring.UringDepth;

/**
 * {@link UringFixedSendSender} with IORING_OP_SEND_ZC from the registered buffer (IORING_RECVSEND_FIXED_BUF): the
 * socket takes the already pinned pages, no copy into socket memory; a buffer is read into again only after its
 * notification CQE. Over loopback the receiver still copies, so expect the gain on a NIC that does scatter-gather.
 */
public final class UringFixedSendZcSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("uring-fixed-send-zc",
            "own io_uring ring: IORING_OP_READ_FIXED (registered file and buffers) + IORING_OP_SEND_ZC from the registered "
                    + "buffer; a buffer is reused after its notification CQE (Linux 6.0+)",
            OwnRingAvailability::fixedSendZeroCopy,
            MethodTraits.twin("uring-fixed-send-zc").paced().definedBy(MethodTraits.IO_URING_ENTER),
            options -> new FixedBufferSender(options.bufferSize(), UringDepth.get(), true),
            UringDepth::bufferBytes);

    private UringFixedSendZcSender() {
    }
}
