package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Opens files a server serves to clients. {@code FileChannel.open} blocks forever on a FIFO with no writer and
 * follows a symlink swapped in after a check; this opens with {@code O_NONBLOCK | O_NOFOLLOW}, then refuses
 * anything but a regular file by looking at the descriptor it got (a check of the path first would race a rename).
 */
public final class RegularFiles {
    private RegularFiles() {
    }

    /**
     * @throws NoSuchFileException   if there is nothing at {@code path}
     * @throws AccessDeniedException if it is not a regular file (FIFO, device, socket, directory), is a symbolic
     *                               link, or may not be read
     */
    public static FileChannel openRead(Path path) throws IOException {
        NativeSupport.check();
        int fd;
        try {
            fd = Libc.open(Libc.path(path), Libc.O_RDONLY | Libc.O_NONBLOCK | Libc.O_NOFOLLOW | Libc.O_CLOEXEC, 0);
        } catch (LastErrorException e) {
            throw switch (e.getErrorCode()) {
                case Errno.ENOENT -> new NoSuchFileException(path.toString());
                case Errno.ELOOP -> new AccessDeniedException(path.toString(), null, "is a symbolic link");
                case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(path.toString(), null, "permission denied");
                case Errno.ENXIO -> new AccessDeniedException(path.toString(), null, "not a regular file");
                default -> NativeException.of("open(" + path + ")", e);
            };
        }
        try {
            Statx st = Statx.of(fd, Libc.STATX_TYPE | Libc.STATX_MODE);
            if (!st.regular()) {
                throw new AccessDeniedException(path.toString(), null, "not a regular file");
            }
            return wrap(fd);
        } catch (LastErrorException e) {
            closeQuietly(fd);
            throw NativeException.of("statx(" + path + ")", e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd);
            throw e;
        }
    }

    /** A JDK channel that owns {@code fd}: closing the channel closes it. */
    private static FileChannel wrap(int fd) {
        FileDescriptor descriptor = Fds.descriptor(fd);
        return new FileInputStream(descriptor).getChannel();
    }

    private static void closeQuietly(int fd) {
        try {
            Libc.close(fd);
        } catch (LastErrorException ignored) {
            // Nothing was handed out; the descriptor is gone either way.
        }
    }
}
