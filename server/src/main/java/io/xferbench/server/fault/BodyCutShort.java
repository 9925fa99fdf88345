package io.xferbench.server.fault;

import java.util.logging.Logger;

/**
 * A download's body that failed on the socket after its answer's head went out (the client left, a reset, a file cut
 * short under it): the close is all the client can hear, so the log says once who and what, at INFO. A failure of the
 * server's own at that point is an internal error ({@link InternalErrors}), not this.
 */
public final class BodyCutShort {
    private static final Logger LOG = Logger.getLogger(BodyCutShort.class.getName());

    private BodyCutShort() {
    }

    public static void log(String model, String peer, Object request, String via, Throwable cause) {
        LOG.info(() -> model + " " + peer + ": " + InternalErrors.describe(request) + " (" + via
                + ") cut short after the head was sent: " + cause + (cause.getCause() == null ? "" : " (" + cause.getCause() + ")"));
    }
}
