package io.xferbench.core.protocol;

import java.io.IOException;

/** A request or response that breaks the protocol; carries the status to answer with. */
public final class ProtocolException extends IOException {
    private final Status status;

    public ProtocolException(Status status, String message) {
        super(message);
        this.status = status;
    }

    public Status status() {
        return status;
    }
}
