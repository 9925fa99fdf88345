package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;

/**
 * A descriptor held on an inode so that it cannot be freed: while it is held, no other file on the same device can
 * get its inode number (local file systems number live inodes uniquely and reuse a number only once its inode is
 * freed, which an open descriptor prevents, unlink or not). So a descriptor opened while the pin is held that shows
 * the pinned device and inode number is the pinned inode, without comparing generations.
 *
 * <p>The cost: a pinned file that is deleted keeps its blocks until the pin is released.
 */
public final class InodePin implements AutoCloseable {
    private final int fd;
    /** Cleared before the descriptor is closed, so whoever sees it set saw the inode held. */
    private volatile boolean held = true;

    private InodePin(int fd) {
        this.fd = fd;
    }

    private static final int F_DUPFD_CLOEXEC = 1030;

    /**
     * Pins the inode open as {@code fd}: a duplicate of the descriptor (no path is looked up again), close-on-exec so
     * that no child process inherits it.
     */
    static InodePin of(int fd) throws NativeException {
        NativeSupport.check();
        try {
            return new InodePin((int) Libc.fcntl(fd, F_DUPFD_CLOEXEC, 0));
        } catch (LastErrorException e) {
            throw NativeException.of("fcntl(" + fd + ", F_DUPFD_CLOEXEC)", e);
        }
    }

    /** Whether the inode is still held; true means it was held at every moment since the pin was taken. */
    public boolean held() {
        return held;
    }

    @Override
    public synchronized void close() {
        if (!held) {
            return;
        }
        held = false;
        try {
            Libc.close(fd);
        } catch (LastErrorException ignored) {
            // The descriptor is released either way.
        }
    }
}
