package io.xferbench.core.uring;

import io.xferbench.core.method.Availability;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeSupport;

/** What the engine's methods that dup the socket's fd need: the native shim, the JDK's fds, and Netty io_uring. */
public final class UringAvailability {
    private UringAvailability() {
    }

    public static Availability withDuplicatedFds() {
        String reason = NativeSupport.unavailableReason();
        if (reason == null) {
            reason = Fds.unavailableReason();
        }
        return reason != null ? Availability.unavailable(reason) : NettyTransport.IO_URING.availability();
    }
}
