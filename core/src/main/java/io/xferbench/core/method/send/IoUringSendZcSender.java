package io.xferbench.core.method.send;

import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.uring.SendZeroCopyProbe;
import io.xferbench.core.uring.UringDepth;
import io.xferbench.core.uring.UringFileSender;

/**
 * {@link IoUringReadSendSender} with IORING_OP_SENDMSG_ZC: the socket takes the buffer's pages instead of copying them,
 * and a buffer is read into again only after the notification CQE that gives its pages back. Over loopback the
 * receiving side still copies, so expect no gain there; on a NIC that does scatter-gather the copy is saved.
 */
public final class IoUringSendZcSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("io-uring-send-zc",
            "io_uring IORING_OP_READ into --io-uring-depth buffers + IORING_OP_SENDMSG_ZC of the ready chunks; a buffer is reused "
                    + "after its notification CQE (Linux 6.1+)",
            SendZeroCopyProbe::availability,
            MethodTraits.twin("uring-send-zc").paced().definedBy(MethodTraits.IO_URING_ENTER),
            options -> new UringFileSender(options.bufferSize(), false, true),
            UringDepth::bufferBytes);

    private IoUringSendZcSender() {
    }
}
