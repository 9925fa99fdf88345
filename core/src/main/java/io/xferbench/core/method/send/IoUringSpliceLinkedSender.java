package io.xferbench.core.method.send;

import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.pipe.PipePool;
import io.xferbench.core.uring.UringAvailability;
import io.xferbench.core.uring.UringSpliceSender;

/**
 * Splice through io_uring driven the way the liburing shape does it, unlike Netty's FileRegion (64 KiB pipe, 32-bit
 * offsets): per round an IORING_OP_SPLICE file → pipe of the pipe's size at a 64-bit offset, linked to IORING_OP_SPLICE
 * pipe → socket; the pipe is the request's buffer size (F_SETPIPE_SZ, from the process-wide pipe pool).
 */
public final class IoUringSpliceLinkedSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("io-uring-splice-linked",
            "io_uring IORING_OP_SPLICE file -> pipe (64-bit offset) linked to IORING_OP_SPLICE pipe -> socket, pipe of the buffer "
                    + "size, one pair in flight; both run on io-wq workers (Netty IoUringIoHandle)",
            UringAvailability::withDuplicatedFds,
            MethodTraits.twin("uring-splice-linked").definedBy(MethodTraits.IO_URING_ENTER),
            options -> new UringSpliceSender(PipePool.shared(options.bufferSize())));

    private IoUringSpliceLinkedSender() {
    }
}
