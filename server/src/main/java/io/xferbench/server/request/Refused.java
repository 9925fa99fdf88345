package io.xferbench.server.request;

import io.xferbench.core.protocol.Status;
import java.io.IOException;

/** A well-formed request answered with {@code status} instead of being served; the connection goes on. */
public class Refused extends IOException {
    public final Status status;

    public Refused(Status status, String message) {
        super(message);
        this.status = status;
    }
}
