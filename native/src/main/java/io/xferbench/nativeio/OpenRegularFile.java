package io.xferbench.nativeio;

import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A regular file opened for reading by {@link RegularFiles}, with the one {@code statx} of its descriptor that
 * proved it regular. That statx asked for every field of a {@link FileIdentity} but the generation, so the size and
 * the comparison with a known identity cost no further syscall; the generation ({@code FS_IOC_GETVERSION}, one
 * ioctl) is read only when {@link #identity()} is asked, once.
 */
public final class OpenRegularFile implements AutoCloseable {
    private final FileChannel channel;
    private final int fd;
    private final Statx stat;
    private FileIdentity identity;

    OpenRegularFile(FileChannel channel, int fd, Statx stat) {
        this.channel = channel;
        this.fd = fd;
        this.stat = stat;
    }

    /** The JDK channel that owns the descriptor. */
    public FileChannel channel() {
        return channel;
    }

    /** The size when it was opened. */
    public long size() {
        return stat.size();
    }

    /** The full identity as of the open: the statx taken then, and the generation read now (once). */
    public FileIdentity identity() {
        if (identity == null) {
            identity = FileIdentity.of(fd, stat);
        }
        return identity;
    }

    /**
     * Whether the file as opened has {@code known}'s device, inode number, size, mtime and ctime. The generation is
     * not compared: a match says "same inode" only where the inode {@code known} describes cannot have been freed
     * (see {@link InodePin}); otherwise compare {@link #identity()}.
     */
    public boolean matchesExceptGeneration(FileIdentity known) {
        return known.matchesExceptGeneration(stat);
    }

    /** A pin on this inode ({@link InodePin}), held until closed; the caller owns it. */
    public InodePin pin() throws NativeException {
        return InodePin.of(fd);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
