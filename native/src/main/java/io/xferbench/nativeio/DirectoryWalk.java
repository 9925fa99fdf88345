package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.List;

/**
 * Reaches a directory from a directory descriptor one component at a time, each opened
 * {@code O_PATH | O_DIRECTORY | O_NOFOLLOW} (search permission is enough): a component that is a symlink now, or no
 * longer a directory, is refused, never followed. For acting on an entry of a path checked earlier ({@link Unlink},
 * {@link EntryStat#beneath}) without a symlink swapped in since leading the act elsewhere.
 */
final class DirectoryWalk {
    private static final int FLAGS = Libc.O_PATH | Libc.O_DIRECTORY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC;

    private DirectoryWalk() {
    }

    /**
     * The descriptor of the directory {@code directories} lead to from {@code dirfd}: {@code dirfd} itself for none,
     * else a new one for {@link #close}. Every descriptor of the walk but the result is closed, on failure too.
     *
     * @param shown how failures name what was asked for
     * @throws NoSuchFileException   if a directory on the way is gone
     * @throws AccessDeniedException if one is no longer a directory (a symlink now, say), or may not be searched
     */
    static int open(int dirfd, List<String> directories, String shown) throws IOException {
        for (String d : directories) {
            checkEntry(d);
        }
        NativeSupport.check();
        int at = dirfd;
        for (String d : directories) {
            int next;
            try {
                next = Libc.openat(at, Libc.path(d), FLAGS, 0);
            } catch (LastErrorException e) {
                close(at, dirfd);
                throw switch (e.getErrorCode()) {
                    case Errno.ENOENT -> new NoSuchFileException(shown, null, "its directory " + d + " is gone");
                    // O_PATH|O_NOFOLLOW opens a symlink itself, which O_DIRECTORY then refuses: ENOTDIR.
                    case Errno.ENOTDIR, Errno.ELOOP -> new AccessDeniedException(shown, null,
                            d + " on its path is no longer a directory (a symbolic link is not followed)");
                    case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
                    default -> failure(shown, e.getErrorCode());
                };
            }
            close(at, dirfd);
            at = next;
        }
        return at;
    }

    /** Closes {@code fd}, a result of {@link #open}, unless it is the {@code dirfd} given there. */
    static void close(int fd, int given) {
        if (fd != given) {
            try {
                Libc.close(fd);
            } catch (LastErrorException ignored) {
                // An O_PATH descriptor of our own; nothing of it was handed out.
            }
        }
    }

    /** Refuses what is not one entry's name before any call. */
    static void checkEntry(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a single entry name: '" + name + "'");
        }
    }

    /** Any other failure, with the errno's name and text. */
    static FileSystemException failure(String shown, int errno) {
        return new FileSystemException(shown, null, Errno.name(errno) + " (" + Errno.describe(errno) + ")");
    }
}
