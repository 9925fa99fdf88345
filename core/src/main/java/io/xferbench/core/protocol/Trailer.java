package io.xferbench.core.protocol;

/**
 * Sent by the server after a transfer body: whether its side finished, how long it took, and the page-cache
 * residency after the transfer (per mille, -1 unknown).
 */
public record Trailer(Status status, long serverNanos, int residencyPermille, String message) {
    public static Trailer ok(long serverNanos, int residencyPermille) {
        return new Trailer(Status.OK, serverNanos, residencyPermille, "");
    }

    public static Trailer failed(Status status, String message) {
        return new Trailer(status, 0, -1, message);
    }
}
