package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
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
}
