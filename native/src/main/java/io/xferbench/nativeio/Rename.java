package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * Renames a directory entry between two directories open as descriptors, in one {@code renameat(2)}: an entry at the
 * new name that is not a directory is replaced atomically (readers see the old file or the new one). By descriptor, a
 * directory of either path swapped for a symlink after the caller checked it cannot lead the rename elsewhere; the
 * descriptors come from {@link HeldDirectory}, whose walk refuses such a symlink.
 */
public final class Rename {
    private Rename() {
    }

    /** A file system without {@code RENAME_NOREPLACE} (EINVAL from {@code renameat2}): nothing was moved. */
    public static final class NoReplaceUnsupportedException extends FileSystemException {
        NoReplaceUnsupportedException(String file) {
            super(file, null, "EINVAL (this file system has no RENAME_NOREPLACE)");
        }
    }

    /**
     * Renames {@code from} in {@code fromDir} to {@code to} in {@code toDir}.
     *
     * @param shown how failures name the entry
     * @throws NoSuchFileException   if {@code from} is gone
     * @throws AccessDeniedException if {@code to} is a directory (left as it is), or may not be replaced
     * @throws FileSystemException   for any other failure (EXDEV, EROFS, ENOSPC, ...), with the errno's name and text
     */
    public static void entry(int fromDir, String from, int toDir, String to, String shown) throws IOException {
        DirectoryWalk.checkEntry(from);
        DirectoryWalk.checkEntry(to);
        NativeSupport.check();
        try {
            Libc.renameat(fromDir, Libc.path(from), toDir, Libc.path(to));
        } catch (LastErrorException e) {
            throw switch (e.getErrorCode()) {
                case Errno.ENOENT -> new NoSuchFileException(shown, null, "the file to rename is gone");
                case Errno.EISDIR, Errno.ENOTEMPTY, Errno.EEXIST -> new AccessDeniedException(shown, null, "is a directory");
                case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
                default -> DirectoryWalk.failure(shown, e.getErrorCode());
            };
        }
    }

    /**
     * Renames {@code from} in {@code fromDir} to {@code to} in {@code toDir} unless an entry is at {@code to}
     * ({@code renameat2(2)} with {@code RENAME_NOREPLACE}): the check and the rename are one call, so nothing put at
     * {@code to} meanwhile is replaced. Entries of any type move, directories too.
     *
     * @param shown how failures name the entry
     * @return false, with nothing moved, if an entry is at {@code to}
     * @throws NoSuchFileException   if {@code from} is gone
     * @throws AccessDeniedException if it may not be moved
     * @throws NoReplaceUnsupportedException where the file system has no {@code RENAME_NOREPLACE} (ext4, XFS, Btrfs,
     *                               tmpfs and overlayfs have it)
     * @throws FileSystemException   for any other failure, with the errno's name and text
     */
    public static boolean noReplace(int fromDir, String from, int toDir, String to, String shown) throws IOException {
        DirectoryWalk.checkEntry(from);
        DirectoryWalk.checkEntry(to);
        NativeSupport.check();
        try {
            Libc.renameat2(fromDir, Libc.path(from), toDir, Libc.path(to), Libc.RENAME_NOREPLACE);
            return true;
        } catch (LastErrorException e) {
            if (e.getErrorCode() == Errno.EEXIST) {
                return false;
            }
            throw switch (e.getErrorCode()) {
                case Errno.ENOENT -> new NoSuchFileException(shown);
                case Errno.EINVAL -> new NoReplaceUnsupportedException(shown);
                case Errno.EACCES, Errno.EPERM -> new AccessDeniedException(shown, null, "permission denied");
                default -> DirectoryWalk.failure(shown, e.getErrorCode());
            };
        }
    }
}
