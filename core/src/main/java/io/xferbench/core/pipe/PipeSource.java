package io.xferbench.core.pipe;

import io.xferbench.nativeio.Splice;
import java.io.IOException;

/**
 * Where the raw splice paths get the pipe they splice through: a fresh {@code pipe2(2)} every time
 * ({@link #fresh(int)}), or a {@link PipePool} that hands back pipes other transfers released.
 *
 * <p>Contract: a pipe is released with {@code reusable = true} only when it is empty (every byte spliced into it
 * was spliced out again) and still open; after any error in a transfer the caller releases it with
 * {@code reusable = false} and the source closes it. A released pipe must not be used again by the caller.
 */
public interface PipeSource {

    /** A pipe of (at least) {@link #pipeSize()} bytes of capacity, empty. */
    Splice.Pipe acquire() throws IOException;

    /** Gives the pipe back: kept for reuse when {@code reusable} and there is room, closed otherwise. */
    void release(Splice.Pipe pipe, boolean reusable);

    /** The capacity asked for (F_SETPIPE_SZ); the kernel may round it up. */
    int pipeSize();

    /** No pooling: {@code pipe2(2)} (+ F_SETPIPE_SZ when {@code pipeSize} is not the default) per acquire, close per release. */
    static PipeSource fresh(int pipeSize) {
        return new PipeSource() {
            @Override
            public Splice.Pipe acquire() throws IOException {
                return PipePool.open(pipeSize);
            }

            @Override
            public void release(Splice.Pipe pipe, boolean reusable) {
                PipePool.closeQuietly(pipe);
            }

            @Override
            public int pipeSize() {
                return pipeSize;
            }

            @Override
            public String toString() {
                return "fresh pipe2 per acquire (" + pipeSize + " bytes)";
            }
        };
    }
}
