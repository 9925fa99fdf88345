package io.xferbench.server.request;

import io.xferbench.core.protocol.Status;

/** What a client hears of a request whose work failed before anything of its answer was written. */
public sealed interface FailureAnswer {
    /** An error frame with this status and text; the stream is intact, the connection goes on. */
    record Answered(Status status, String message) implements FailureAnswer {
    }

    /** The server's own failure (a RuntimeException, an Error): logged with the request named, then SERVER_ERROR. */
    record Internal(Throwable cause) implements FailureAnswer {
    }
}
