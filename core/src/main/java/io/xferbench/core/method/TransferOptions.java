package io.xferbench.core.method;

import io.xferbench.core.tls.TlsEndpoint;

/**
 * Per-transfer knobs a client may set, and what the server lends a transfer.
 *
 * @param bufferSize user-space buffer for the copying methods (stream, channel-*, direct-io); ignored by zero-copy ones
 * @param unaligned  give channel-direct a buffer at page + 16 instead of page-aligned, to show the penalty
 * @param tls        the server's TLS end for a TLS method ({@link MethodTraits#tls}), null where there is none (a
 *                   server started without TLS, JMH, the twins)
 */
public record TransferOptions(int bufferSize, boolean unaligned, TlsEndpoint tls) {
    public static final int DEFAULT_BUFFER_SIZE = 64 * 1024;
    public static final TransferOptions DEFAULT = new TransferOptions(DEFAULT_BUFFER_SIZE, false);

    public TransferOptions {
        if (bufferSize <= 0) {
            bufferSize = DEFAULT_BUFFER_SIZE;
        }
    }

    /** Options of a plaintext transfer. */
    public TransferOptions(int bufferSize, boolean unaligned) {
        this(bufferSize, unaligned, null);
    }
}
