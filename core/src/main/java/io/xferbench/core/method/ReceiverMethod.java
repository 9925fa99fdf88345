package io.xferbench.core.method;

import java.io.IOException;

/** A way to move bytes from a socket into a file: its id on the command line, and a factory of per-connection receivers. */
public interface ReceiverMethod extends TransferMethod {

    @Override
    default Direction direction() {
        return Direction.UPLOAD;
    }

    /** Largest upload this method can write correctly; Long.MAX_VALUE when the method has no limit of its own. */
    default long maxLength() {
        return Long.MAX_VALUE;
    }

    /** Why {@link #maxLength()} exists, or empty. */
    default String limitReason() {
        return "";
    }

    /** Called before the client is told to send: refuse a length this method cannot write correctly. */
    default void checkSupported(long length) throws UnsupportedTransferException {
        if (length > maxLength()) {
            throw new UnsupportedTransferException("cannot receive " + length + " bytes (at most " + maxLength() + "): " + limitReason());
        }
    }

    FileReceiver newReceiver(TransferOptions options) throws IOException;
}
