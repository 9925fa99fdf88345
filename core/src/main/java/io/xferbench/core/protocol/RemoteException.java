package io.xferbench.core.protocol;

import java.io.IOException;

/** The peer answered with an error status. */
public final class RemoteException extends IOException {
    private final Status status;

    public RemoteException(Status status, String message) {
        super(status + ": " + message);
        this.status = status;
    }

    public Status status() {
        return status;
    }

    /** The peer's message without the status prefix. */
    public String reason() {
        String m = getMessage();
        int i = m.indexOf(": ");
        return i < 0 ? m : m.substring(i + 2);
    }
}
