package io.xferbench.core.data;

import io.xferbench.core.protocol.FileStat;
import io.xferbench.nativeio.EntryStat;
import io.xferbench.nativeio.Errno;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * STAT's answer for a client-supplied name: whether a regular file of that name exists, with its size and mtime, by
 * the same rules a download resolves it ({@link ConfinedNames}). It owns the difference between absent and refused: a
 * name outside the directory, or a FIFO or directory, is refused, not reported absent. Kept apart from resolution
 * because a STAT answers from one statx where it can and opens nothing, and because an event loop answers single
 * names by its own statx ({@link #ofEntry}) under the same rules.
 */
final class ConfinedStat {
    private final ConfinedNames names;

    ConfinedStat(ConfinedNames names) {
        this.names = names;
    }

    /** STAT of {@code name} (see the class comment). */
    FileStat stat(String name) throws IOException {
        if (ConfinedNames.checkName(name).indexOf('/') < 0) {
            FileStat entry = singleEntry(name);
            if (entry != null) {
                return entry;
            }
        }
        Path real;
        try {
            real = names.realPathOf(name);
        } catch (NoSuchFileException e) {
            return FileStat.ABSENT;
        }
        return of(name, real);
    }

    /**
     * STAT's answer for the single name {@code name} from one statx of it in the held directory, as its download opens
     * there: no real path of the directory's path (toRealPath was a readlink per component of it, 4 for a name three
     * levels below /). Null for a symlink, which the real path decides (in or out).
     *
     * @throws AccessDeniedException if it is neither a regular file nor a symlink
     */
    private FileStat singleEntry(String name) throws IOException {
        EntryStat st;
        try {
            st = EntryStat.beneath(names.directoryFd(), List.of(), name, name);
        } catch (NoSuchFileException e) {
            return FileStat.ABSENT;
        }
        if (st.symbolicLink()) {
            return null;
        }
        if (!st.regular()) {
            throw new AccessDeniedException(name, null, "not a regular file");
        }
        return new FileStat(true, st.size(), st.mtimeNanos());
    }

    /**
     * STAT's answer for {@code real}, the real path {@code name} resolved to: from the one statx that also checks the
     * type ({@link ConfinedNames#regularEntry}). It was a second lstat, by path and untyped: a file swapped for a
     * directory or FIFO since was told as a file, and one through a directory swapped for a symlink was a file outside.
     */
    FileStat of(String name, Path real) throws IOException {
        try {
            EntryStat st = names.regularEntry(name, real);
            return new FileStat(true, st.size(), st.mtimeNanos());
        } catch (NoSuchFileException deletedMeanwhile) {
            return FileStat.ABSENT;
        }
    }

    /**
     * STAT's answer from a statx of a single entry made by other means (an io_uring STATX, a symlink not followed):
     * {@code res} 0 with {@code stat}, or a negated errno. Null where only {@link #stat} can answer by its rules: a
     * symlink (the real path decides), another type than a regular file (refused there), an error other than absence.
     */
    static FileStat ofEntry(int res, EntryStat stat) {
        if (res == -Errno.ENOENT) {
            return FileStat.ABSENT;
        }
        return res == 0 && stat.regular() ? new FileStat(true, stat.size(), stat.mtimeNanos()) : null;
    }
}
