package io.xferbench.server.request;

import io.xferbench.core.data.NotEnoughSpaceException;
import io.xferbench.core.protocol.Status;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.NativeException;

/** The status a failed file operation is answered with. */
public final class FailureStatus {
    private FailureStatus() {
    }

    /**
     * VERIFY_FAILED; NO_SPACE for a write refused as not fitting, and for ENOSPC/EDQUOT wherever they surface (JDK
     * message, Netty or native errno); BUSY for EMFILE/ENFILE (out of descriptors: the same request succeeds once
     * connections go, as a client refused at accept is told); else SERVER_ERROR.
     */
    public static Status of(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof VerifyFailed) {
                return Status.VERIFY_FAILED;
            }
            if (t instanceof NotEnoughSpaceException) {
                return Status.NO_SPACE;
            }
            if (t instanceof NativeException n && (n.errno() == Errno.ENOSPC || n.errno() == Errno.EDQUOT)) {
                return Status.NO_SPACE;
            }
            if (t instanceof NativeException n && (n.errno() == Errno.EMFILE || n.errno() == Errno.ENFILE)) {
                return Status.BUSY;
            }
            String m = t.getMessage();
            if (m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded"))) {
                return Status.NO_SPACE;
            }
            if (m != null && m.contains("Too many open files")) { // the JDK's text for EMFILE, and ENFILE's "... in system"
                return Status.BUSY;
            }
        }
        return Status.SERVER_ERROR;
    }
}
