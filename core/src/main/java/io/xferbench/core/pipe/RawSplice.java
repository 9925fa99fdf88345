package io.xferbench.core.pipe;

import io.xferbench.core.method.Availability;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeSupport;

/** What the methods that make syscalls on JDK fds through the native shim (raw splice(2), sendfile) need: the shim and JDK fds. */
public final class RawSplice {
    private RawSplice() {
    }

    public static Availability availability() {
        String reason = NativeSupport.unavailableReason();
        if (reason == null) {
            reason = Fds.unavailableReason();
        }
        return reason == null ? Availability.AVAILABLE : Availability.unavailable(reason);
    }
}
