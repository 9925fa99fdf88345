package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

/**
 * Makes a directory entry of a directory open as a descriptor, in one {@code mkdirat(2)}: by descriptor, the
 * directory's path moved or redirected meanwhile (a symlink to another in its place) cannot lead it elsewhere, and a
 * symlink at the name itself is never followed (EEXIST, as for any entry there).
 */
public final class MakeDirectory {
    private MakeDirectory() {
    }

    /**
     * Makes the directory {@code name} in the directory open as {@code dirfd}, with {@code mode} less the umask.
     *
     * @param shown how failures name the entry
     * @return true if made, false if an entry of that name was there (of any type: the caller checks what it is)
     * @throws NoSuchFileException   if the directory {@code dirfd} was removed
     * @throws AccessDeniedException if it may not be made there (EACCES, EPERM)
     * @throws FileSystemException   for any other failure (EROFS, ENOSPC, EDQUOT, ...), with the errno's name and text
     */
    public static boolean entry(int dirfd, String name, int mode, String shown) throws IOException {
        DirectoryWalk.checkEntry(name);
        NativeSupport.check();
        try {
            Libc.mkdirat(dirfd, Libc.path(name), mode);
            return true;
        } catch (LastErrorException e) {
            return switch (e.getErrorCode()) {
                case Errno.EEXIST -> false;
                case Errno.ENOENT -> throw new NoSuchFileException(shown, null, "its directory is gone");
                case Errno.EACCES, Errno.EPERM -> throw new AccessDeniedException(shown, null, "permission denied");
                default -> throw DirectoryWalk.failure(shown, e.getErrorCode());
            };
        }
    }
}
