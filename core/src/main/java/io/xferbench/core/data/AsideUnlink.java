package io.xferbench.core.data;

import io.xferbench.nativeio.EntryStat;
import io.xferbench.nativeio.HeldDirectory;
import io.xferbench.nativeio.Rename;
import io.xferbench.nativeio.Unlink;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Logger;

/**
 * Removes a DELETE's entry only if it is what a DELETE may remove. unlinkat(2) refuses only a directory, so a FIFO,
 * socket or symlink put at a checked name before the unlink went with it. Here the name is first moved to a private
 * name in the same directory ({@code renameat2(RENAME_NOREPLACE)}), and what was moved is looked at there, under a
 * random hidden name no client can reach and no one else uses: unlinked if a regular file (or the symlink a DELETE of
 * a link removes), else moved back.
 * The private name is a {@link TempFiles} name ({@code .tmp-<owner>-deleting-<name>-<random>}): hidden from clients,
 * and swept at the next start when a crash left it there (a regular file removed, anything else put back by
 * {@link AbandonedAside}).
 */
final class AsideUnlink {
    private static final Logger LOG = Logger.getLogger(AsideUnlink.class.getName());

    private AsideUnlink() {
    }

    /**
     * Removes {@code last} of {@code dir} (the directory {@code parent}, held) if it is a regular file, or a symlink
     * when {@code link} (the name was checked as a link to one).
     *
     * @param shown how failures name the entry
     * @throws NoSuchFileException   if nothing is at the name
     * @throws AccessDeniedException "not a regular file" for anything else, left at its name (or, if the name was taken
     *                               meanwhile, at the private name, logged)
     */
    static void remove(HeldDirectory dir, Path parent, String last, boolean link, String shown) throws IOException {
        String aside = TempFiles.next(parent, TempFiles.DELETING + last).getFileName().toString();
        moveAside(dir, last, aside, shown);
        try {
            EntryStat moved = EntryStat.beneath(dir.fd(), List.of(), aside, shown);
            if (moved.regular() || link && moved.symbolicLink()) {
                Unlink.entry(dir.fd(), aside, shown);
                return;
            }
        } catch (IOException | RuntimeException e) {
            putBack(dir, aside, last, shown);
            throw e;
        }
        putBack(dir, aside, last, shown);
        throw new AccessDeniedException(shown, null, "not a regular file");
    }

    private static void moveAside(HeldDirectory dir, String last, String aside, String shown) throws IOException {
        boolean moved;
        try {
            moved = Rename.noReplace(dir.fd(), last, dir.fd(), aside, shown);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(shown, null, "no such file in the data directory");
        } catch (Rename.NoReplaceUnsupportedException e) {
            // No RENAME_NOREPLACE on this file system: a plain rename, onto a name with 64 random bits nobody else uses.
            Rename.entry(dir.fd(), last, dir.fd(), aside, shown);
            moved = true;
        }
        if (!moved) {
            throw new FileSystemException(shown, null, "the private name " + aside + " to delete it from is taken");
        }
    }

    /**
     * Moves what is not to be removed back to its name, unless something took the name meanwhile: then it stays aside,
     * logged; package-private for a test.
     */
    static void putBack(HeldDirectory dir, String aside, String last, String shown) {
        String why;
        try {
            if (Rename.noReplace(dir.fd(), aside, dir.fd(), last, shown)) {
                return;
            }
            why = "its name was taken meanwhile";
        } catch (IOException e) {
            why = e.getMessage();
        }
        LOG.warning(shown + ": not removed by a DELETE (not a regular file) and not put back (" + why + "): left as "
                + aside + " in its directory");
    }
}
