package io.xferbench.core.uring;

import io.xferbench.core.method.TransferOptions;

/**
 * Buffers in flight per transfer of the io_uring engine's methods, process-wide (the server's
 * {@code --io-uring-depth}): senders keep that many chunks reading, the upload receiver that many buffers writing.
 */
public final class UringDepth {
    /**
     * With 8 × 64 KiB a sender's loop sends about four chunks per io_uring_enter (JMH: 4.5 enters/MiB against
     * read+write's 32 syscalls/MiB); with 4, about two.
     */
    public static final int DEFAULT = 8;
    public static final int MAX = 4096;

    private static volatile int depth = DEFAULT;

    private UringDepth() {
    }

    public static void set(int buffers) {
        if (buffers < 1 || buffers > MAX) {
            throw new IllegalArgumentException("io_uring queue depth " + buffers + " is not in [1, " + MAX + "]");
        }
        depth = buffers;
    }

    public static int get() {
        return depth;
    }

    /** The buffer memory one sender or receiver built for {@code options} keeps: a buffer per chunk in flight. */
    public static long bufferBytes(TransferOptions options) {
        return (long) options.bufferSize() * depth;
    }
}
