package io.xferbench.core.method;

import java.io.IOException;

/** A way to move a file to a socket: its id on the command line, and a factory of per-connection senders. */
public interface SenderMethod extends TransferMethod {

    @Override
    default Direction direction() {
        return Direction.DOWNLOAD;
    }

    FileSender newSender(TransferOptions options) throws IOException;
}
