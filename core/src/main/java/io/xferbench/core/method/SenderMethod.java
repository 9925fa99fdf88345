package io.xferbench.core.method;

import java.io.IOException;

/** A way to move a file to a socket: its id on the command line, and a factory of per-connection senders. */
public interface SenderMethod extends TransferMethod {

    @Override
    default Direction direction() {
        return Direction.DOWNLOAD;
    }

    FileSender newSender(TransferOptions options) throws IOException;

    /**
     * How this method sends from a Netty event loop, or null for a method that sends on a blocking socket (on a thread
     * of the threaded models, on the file pool of the event-loop models).
     */
    default LoopSender loopSender() {
        return null;
    }
}
