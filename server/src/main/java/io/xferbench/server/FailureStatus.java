package io.xferbench.server;

import io.xferbench.core.data.NotEnoughSpaceException;
import io.xferbench.core.protocol.Status;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.NativeException;

/** The status a failed file operation is answered with. */
final class FailureStatus {
    private FailureStatus() {
    }

    /**
     * VERIFY_FAILED; NO_SPACE for a write refused as not fitting, and for ENOSPC/EDQUOT wherever they surface (JDK
     * message, Netty or native errno); else SERVER_ERROR.
     */
    static Status of(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UploadPlacement.VerifyException) {
                return Status.VERIFY_FAILED;
            }
            if (t instanceof NotEnoughSpaceException) {
                return Status.NO_SPACE;
            }
            if (t instanceof NativeException n && (n.errno() == Errno.ENOSPC || n.errno() == Errno.EDQUOT)) {
                return Status.NO_SPACE;
            }
            String m = t.getMessage();
            if (m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded"))) {
                return Status.NO_SPACE;
            }
        }
        return Status.SERVER_ERROR;
    }
}
