package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;

/**
 * Removes a directory entry that is not a directory, in one {@code unlinkat(2)} without {@code AT_REMOVEDIR}: the
 * kernel refuses a directory (EISDIR) in the same call that would remove anything else. {@code Files.delete} lstat()s
 * first and then calls rmdir or unlink by what it saw, so a file swapped for an empty directory between the two loses
 * the directory. The entry is named relative to a directory descriptor, reached through directories opened with
 * {@code O_NOFOLLOW}: a component swapped for a symlink after the caller resolved the path is refused, not followed.
 */
public final class Unlink {
    private Unlink() {
    }

    /** A directory where a non-directory was to be removed (EISDIR); the directory is still there. */
    public static final class DirectoryException extends AccessDeniedException {
        DirectoryException(String file) {
            super(file, null, "is a directory");
        }
    }

    /**
     * Unlinks the entry {@code name} of the directory open as {@code dirfd}.
     *
     * @param shown how failures name the entry
     * @throws NoSuchFileException   if there is no such entry
     * @throws DirectoryException    if it is a directory (left as it is)
     * @throws AccessDeniedException if it may not be removed (EACCES, EPERM)
     * @throws FileSystemException   for any other failure (EROFS, EBUSY, EIO, ...), with the errno's name and text
     */
    public static void entry(int dirfd, String name, String shown) throws IOException {
        DirectoryWalk.checkEntry(name);
        NativeSupport.check();
        try {
            Libc.unlinkat(dirfd, Libc.path(name), 0);
        } catch (LastErrorException e) {
            throw switch (e.getErrorCode()) {
                case Errno.ENOENT -> new NoSuchFileException(shown);
                case Errno.EISDIR -> new DirectoryException(shown);
                case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
                default -> DirectoryWalk.failure(shown, e.getErrorCode());
            };
        }
    }

    /**
     * Unlinks {@code name} in the directory reached from {@code dirfd} through {@code directories} ({@link DirectoryWalk}:
     * none followed if a symlink now).
     *
     * @throws NoSuchFileException   if a directory on the way, or the entry, is gone
     * @throws AccessDeniedException if a component on the way is no longer a directory (a symlink now, say)
     * @see #entry
     */
    public static void beneath(int dirfd, List<String> directories, String name, String shown) throws IOException {
        DirectoryWalk.checkEntry(name);
        int at = DirectoryWalk.open(dirfd, directories, shown);
        try {
            entry(at, name, shown);
        } finally {
            DirectoryWalk.close(at, dirfd);
        }
    }
}
