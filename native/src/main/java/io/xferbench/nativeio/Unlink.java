package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
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
    private static final int WALK_FLAGS = Libc.O_PATH | Libc.O_DIRECTORY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC;

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
        checkEntry(name);
        NativeSupport.check();
        try {
            Libc.unlinkat(dirfd, Libc.path(name), 0);
        } catch (LastErrorException e) {
            throw switch (e.getErrorCode()) {
                case Errno.ENOENT -> new NoSuchFileException(shown);
                case Errno.EISDIR -> new DirectoryException(shown);
                case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
                default -> failure(shown, e.getErrorCode());
            };
        }
    }

    /**
     * Unlinks {@code name} in the directory reached from {@code dirfd} through {@code directories}, one component each,
     * each opened with {@code O_NOFOLLOW | O_DIRECTORY} (as {@code O_PATH}: search permission is enough).
     *
     * @throws NoSuchFileException   if a directory on the way, or the entry, is gone
     * @throws AccessDeniedException if a component on the way is no longer a directory (a symlink now, say)
     * @see #entry
     */
    public static void beneath(int dirfd, List<String> directories, String name, String shown) throws IOException {
        if (directories.isEmpty()) {
            entry(dirfd, name, shown);
            return;
        }
        for (String d : directories) {
            checkEntry(d);
        }
        checkEntry(name);
        NativeSupport.check();
        int at = dirfd;
        try {
            for (String d : directories) {
                int next;
                try {
                    next = Libc.openat(at, Libc.path(d), WALK_FLAGS, 0);
                } catch (LastErrorException e) {
                    throw switch (e.getErrorCode()) {
                        case Errno.ENOENT -> new NoSuchFileException(shown, null, "its directory " + d + " is gone");
                        // O_PATH|O_NOFOLLOW opens a symlink itself, which O_DIRECTORY then refuses: ENOTDIR.
                        case Errno.ENOTDIR, Errno.ELOOP -> new AccessDeniedException(shown, null,
                                d + " on its path is no longer a directory (a symbolic link is not followed)");
                        case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
                        default -> failure(shown, e.getErrorCode());
                    };
                }
                closeUnlessGiven(at, dirfd);
                at = next;
            }
            entry(at, name, shown);
        } finally {
            closeUnlessGiven(at, dirfd);
        }
    }

    private static void checkEntry(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a single entry name: '" + name + "'");
        }
    }

    private static FileSystemException failure(String shown, int errno) {
        return new FileSystemException(shown, null, Errno.name(errno) + " (" + Errno.describe(errno) + ")");
    }

    private static void closeUnlessGiven(int fd, int given) {
        if (fd != given) {
            try {
                Libc.close(fd);
            } catch (LastErrorException ignored) {
                // An O_PATH descriptor; nothing of it is handed out.
            }
        }
    }
}
