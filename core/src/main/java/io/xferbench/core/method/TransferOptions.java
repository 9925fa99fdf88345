package io.xferbench.core.method;

/**
 * Per-transfer knobs a client may set.
 *
 * @param bufferSize user-space buffer for the copying methods (stream, channel-*, direct-io); ignored by zero-copy ones
 * @param unaligned  give channel-direct a buffer at page + 16 instead of page-aligned, to show the penalty
 */
public record TransferOptions(int bufferSize, boolean unaligned) {
    public static final int DEFAULT_BUFFER_SIZE = 64 * 1024;
    public static final TransferOptions DEFAULT = new TransferOptions(DEFAULT_BUFFER_SIZE, false);

    public TransferOptions {
        if (bufferSize <= 0) {
            bufferSize = DEFAULT_BUFFER_SIZE;
        }
    }
}
