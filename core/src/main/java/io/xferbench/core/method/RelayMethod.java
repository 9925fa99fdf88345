package io.xferbench.core.method;

import java.io.IOException;

/** A way to relay a proxied connection socket ↔ socket: its id on the command line, and a factory of relays. */
public interface RelayMethod extends TransferMethod {

    @Override
    default Direction direction() {
        return Direction.RELAY;
    }

    /** A relay for one connection; {@code options.bufferSize()} is the user buffer of the copying relays. */
    Relay newRelay(TransferOptions options) throws IOException;

    /**
     * The smallest {@code options.bufferSize()} that takes effect as asked: a smaller one would be measured under a
     * label it does not have (a pipe holds at least a page, whatever F_SETPIPE_SZ asked for).
     */
    default int minBufferSize() {
        return 1;
    }

    /** What a relay whose buffer memory is {@code options.bufferSize()} per direction holds: one buffer or pipe each way. */
    static long bothDirections(TransferOptions options) {
        return 2L * options.bufferSize();
    }

    /** What a relay that does not use {@code options.bufferSize()} holds of it: nothing (Netty's pool bounds its own). */
    static long noOwnBuffers(TransferOptions options) {
        return 0;
    }
}
