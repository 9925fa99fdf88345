package io.xferbench.core.method.receive;

import io.xferbench.core.method.DefinedReceiverMethod;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.uring.UringAvailability;
import io.xferbench.core.uring.UringDepth;
import io.xferbench.core.uring.UringFileReceiver;

/**
 * The upload mirror of io-uring-read-send on this suite's io_uring engine (core.uring): one IORING_OP_RECV at a time
 * fills a buffer of the request's size in stream order, and full buffers go to the file as IORING_OP_WRITEs at
 * 64-bit offsets, several in flight while the next buffer receives. The CRC32C is taken as each receive completes.
 */
public final class IoUringRecvWriteReceiver {
    public static final ReceiverMethod METHOD = new DefinedReceiverMethod("io-uring-recv-write",
            "io_uring IORING_OP_RECV (MSG_WAITALL) into one of --io-uring-depth buffers at a time + IORING_OP_WRITE of each full "
                    + "buffer at its 64-bit offset, writes in flight behind the receive (Netty IoUringIoHandle)",
            UringAvailability::withDuplicatedFds, Long.MAX_VALUE, "",
            MethodTraits.twin("uring-recv-write").definedBy(MethodTraits.IO_URING_ENTER),
            options -> new UringFileReceiver(options.bufferSize()),
            UringDepth::bufferBytes);

    private IoUringRecvWriteReceiver() {
    }
}
