package io.xferbench.core.tls;

import java.io.IOException;

/** A TLS failure on a {@link TlsChannel}, typed so a caller (and a test) can tell a bad peer from a broken stream. */
public final class TlsException extends IOException {
    public enum Kind {
        /** The handshake did not complete: a certificate not trusted, no common cipher, an alert from the peer. */
        HANDSHAKE_FAILED,
        /** The peer's first bytes are not a TLS record (a plaintext client on a TLS transfer). */
        NOT_TLS,
        /** The peer closed in the middle of a record, or before its close_notify. */
        TRUNCATED,
        /** Anything else the engine refused after the handshake (a bad record MAC, an unexpected message). */
        PROTOCOL
    }

    private final Kind kind;

    public TlsException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
