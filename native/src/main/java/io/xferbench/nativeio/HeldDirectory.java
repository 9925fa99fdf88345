package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.List;

/**
 * A directory reached from a directory descriptor through directories not followed ({@link DirectoryWalk}), held open
 * ({@code O_PATH}) while files are created, renamed ({@link Rename}) and removed in it by name: what a path checked
 * earlier led to, or a refusal, never wherever a symlink swapped in since leads. Not thread-safe; close it once.
 */
public final class HeldDirectory implements AutoCloseable {
    private static final int CREATE = Libc.O_RDWR | Libc.O_CREAT | Libc.O_EXCL | Libc.O_NOFOLLOW | Libc.O_CLOEXEC;
    private static final int SYNC = Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_CLOEXEC;

    private final int fd;
    private final int given;
    private boolean closed;

    private HeldDirectory(int fd, int given) {
        this.fd = fd;
        this.given = given;
    }

    /**
     * The directory {@code directories} lead to from {@code dirfd}; with none, {@code dirfd} itself, which stays the
     * caller's (closing this leaves it open).
     *
     * @throws NoSuchFileException   if a directory on the way is gone
     * @throws AccessDeniedException if one is no longer a directory (a symlink now, say)
     */
    public static HeldDirectory beneath(int dirfd, List<String> directories, String shown) throws IOException {
        return new HeldDirectory(DirectoryWalk.open(dirfd, directories, shown), dirfd);
    }

    public int fd() {
        return fd;
    }

    /**
     * A new regular file {@code name} here, open for reading and writing (mode 0666 less the umask, as the JDK creates
     * files); never through a symlink of that name, never over an existing entry.
     *
     * @throws FileAlreadyExistsException if {@code name} exists
     */
    public FileChannel create(String name, String shown) throws IOException {
        DirectoryWalk.checkEntry(name);
        NativeSupport.check();
        int file;
        try {
            file = Libc.openat(fd, Libc.path(name), CREATE, 0666);
        } catch (LastErrorException e) {
            throw switch (e.getErrorCode()) {
                case Errno.EEXIST -> new FileAlreadyExistsException(shown);
                case Errno.ENOENT -> new NoSuchFileException(shown, null, "its directory is gone");
                case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
                default -> DirectoryWalk.failure(shown, e.getErrorCode());
            };
        }
        return Fds.readWriteChannel(file, shown);
    }

    /** Removes the entry {@code name} here (not a directory) if it is there; @return whether it was */
    public boolean unlinkIfPresent(String name) throws IOException {
        try {
            Unlink.entry(fd, name, name);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** fsync(2) of the directory itself, so a rename into it is durable (an {@code O_PATH} descriptor cannot be synced). */
    public void fsync() throws IOException {
        NativeSupport.check();
        try {
            int d = Libc.openat(fd, Libc.path("."), SYNC, 0);
            try {
                Libc.fsync(d);
            } finally {
                Libc.close(d);
            }
        } catch (LastErrorException e) {
            throw DirectoryWalk.failure("directory fsync", e.getErrorCode());
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            DirectoryWalk.close(fd, given);
        }
    }
}
