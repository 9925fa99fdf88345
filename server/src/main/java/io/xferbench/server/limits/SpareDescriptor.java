package io.xferbench.server.limits;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One file descriptor held in reserve (on /dev/null) so that a server out of descriptors can still accept a client
 * to tell it BUSY: released just before that accept, retaken right after.
 */
public final class SpareDescriptor implements AutoCloseable {
    private static final Path DEV_NULL = Path.of("/dev/null");
    private FileChannel held;

    public SpareDescriptor() {
        retake();
    }

    /** @return whether a descriptor was held and is now free */
    public synchronized boolean release() {
        if (held == null) {
            return false;
        }
        try {
            held.close();
        } catch (IOException ignored) {
            // Closing /dev/null does not fail in a way that keeps the descriptor.
        }
        held = null;
        return true;
    }

    /**
     * Takes the spare back if a descriptor is free (otherwise tries again at the next release).
     * @return whether the spare is held now
     */
    public synchronized boolean retake() {
        if (held == null) {
            try {
                held = FileChannel.open(DEV_NULL, StandardOpenOption.READ);
            } catch (IOException stillExhausted) {
                held = null;
            }
        }
        return held != null;
    }

    @Override
    public synchronized void close() {
        release();
    }
}
