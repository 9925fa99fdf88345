package io.xferbench.core.method.send;

import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.uring.FixedBufferSender;
import io.xferbench.core.uring.OwnRingAvailability;
import io.xferbench.core.uring.UringDepth;

/**
 * READ_FIXED from a registered file into --io-uring-depth registered buffers, then SEND of each chunk in file order,
 * on the suite's own ring ({@link FixedBufferSender}): what io-uring-read-send does on Netty's ring, minus the
 * per-request page pinning and fd lookup that registration saves.
 */
public final class UringFixedSendSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("uring-fixed-send",
            "own io_uring ring: IORING_OP_READ_FIXED (registered file, --io-uring-depth registered buffers) + "
                    + "IORING_OP_SEND of each chunk in order, reads ahead",
            OwnRingAvailability::fixedSend,
            MethodTraits.twin("uring-fixed-send").paced().definedBy(MethodTraits.IO_URING_ENTER),
            options -> new FixedBufferSender(options.bufferSize(), UringDepth.get(), false),
            UringDepth::bufferBytes);

    private UringFixedSendSender() {
    }
}
