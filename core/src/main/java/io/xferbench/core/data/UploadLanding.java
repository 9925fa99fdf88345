package io.xferbench.core.data;

import io.xferbench.nativeio.FileIdentity;
import io.xferbench.nativeio.HeldDirectory;
import io.xferbench.nativeio.MakeDirectory;
import io.xferbench.nativeio.Rename;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * Where an upload's bytes land before they are the file, and how they become it. It owns the temp files
 * ({@link UploadTemp}) and their placement by one renameat(2), both from directory descriptors reached from the held
 * data directory through directories not followed, so a directory of the target's path swapped for a symlink never
 * receives the body. Uploads into the directory itself are written in {@value #UPLOADS}, a hidden subdirectory (no
 * client can name it or anything in it), and renamed from there into place: creating the temp file then takes that
 * directory's lock, not the data directory's, which the rename and every lookup need (nginx keeps its
 * {@code client_body_temp_path} apart for the same reason). It must be a real directory on the data directory's file
 * system (checked when it is made or found), so the rename stays a rename, never a copy. A target in a subdirectory
 * gets its temp file beside it, since that may be another mount.
 */
final class UploadLanding {
    /** The uploads' temp directory, inside the data directory. */
    static final String UPLOADS = ".uploads";
    private static final List<String> UPLOADS_PATH = List.of(UPLOADS);

    private final ConfinedNames names;
    private final ChecksumRecords records;
    private final Path uploads;

    /** Checks a {@value #UPLOADS} left here; a directory only downloaded from stays as it is (the first upload makes it). */
    UploadLanding(ConfinedNames names, ChecksumRecords records) throws IOException {
        this.names = names;
        this.records = records;
        this.uploads = names.root().resolve(UPLOADS);
        if (Files.exists(uploads, LinkOption.NOFOLLOW_LINKS)) {
            checkUploadsDir();
        }
    }

    /**
     * Creates the temp file of an upload to {@code target} (a {@link ConfinedNames#resolveNew} result): in
     * {@value #UPLOADS} for a target in the directory itself, beside the target for one in a subdirectory. Its directory
     * is reached from the held one through directories not followed ({@link HeldDirectory}): by path, a directory of
     * the target's path swapped for a symlink leading out since the check had the body written out there.
     *
     * @throws AccessDeniedException if a directory on the way is no longer one (a symlink now, say)
     */
    UploadTemp createTemp(Path target) throws IOException {
        Path parent = target.getParent();
        String label = target.getFileName().toString();
        String shown = names.shown(target);
        if (!parent.equals(names.root())) {
            return createIn(HeldDirectory.beneath(names.directoryFd(), names.directoriesOf(parent), shown), TempFiles.next(parent, label));
        }
        HeldDirectory dir;
        try {
            dir = HeldDirectory.beneath(names.directoryFd(), UPLOADS_PATH, shown);
        } catch (NoSuchFileException e) {
            // The first upload, or the directory was removed: made and checked then, not per upload.
            dir = makeUploadsDir(shown);
        }
        return createIn(dir, TempFiles.next(uploads, label));
    }

    /** The temp file {@code tmp} created in {@code dir}, which the result holds (released here on failure). */
    private static UploadTemp createIn(HeldDirectory dir, Path tmp) throws IOException {
        String entry = tmp.getFileName().toString();
        try {
            return new UploadTemp(tmp, dir.create(entry, entry), dir, entry);
        } catch (IOException | RuntimeException e) {
            dir.close();
            throw e;
        }
    }

    /**
     * Renames the upload's temp file over {@code target} (a file there is replaced, atomically): one renameat(2) from the
     * temp file's directory to the target's. A temp file beside its target (a subdirectory's upload) is renamed within
     * the directory held since it was created, not reached again: its levels are walked once per upload (an
     * {@code O_PATH} open and a close each). A directory of the path swapped for a symlink after the create then no
     * longer matters: the file lands in the directory the upload was created in, wherever that has moved, never where
     * the symlink leads. A target in the directory itself is renamed from {@value #UPLOADS} into the held directory.
     *
     * @return the nanos an fsync of the target's directory took, 0 without one
     */
    long place(UploadTemp tmp, Path target, boolean fsyncDirectory) throws IOException {
        String shown = names.shown(target);
        if (besideTarget(tmp, target)) {
            return renameInto(tmp, tmp.directory(), target, shown, fsyncDirectory);
        }
        try (HeldDirectory to = HeldDirectory.beneath(names.directoryFd(), names.directoriesOf(target.getParent()), shown)) {
            return renameInto(tmp, to, target, shown, fsyncDirectory);
        }
    }

    /**
     * Records the CRC32C of {@code tmp}, just placed at {@code target} ({@link ChecksumRecords#recordPlaced}); a record
     * file goes into the directory {@code tmp} holds when that is the target's: no second walk of its levels.
     */
    void recordPlaced(UploadTemp tmp, Path target, long verifiedSize, int crc32c) {
        records.recordPlaced(target, tmp.channel(), verifiedSize, crc32c, besideTarget(tmp, target) ? tmp.directory() : null);
    }

    /** Whether {@code tmp} was created in {@code target}'s directory, which it holds (see {@link #createTemp}). */
    private static boolean besideTarget(UploadTemp tmp, Path target) {
        return tmp.path().getParent().equals(target.getParent());
    }

    private static long renameInto(UploadTemp tmp, HeldDirectory to, Path target, String shown, boolean fsync) throws IOException {
        Rename.entry(tmp.directory().fd(), tmp.entry(), to.fd(), target.getFileName().toString(), shown);
        tmp.placed();
        if (!fsync) {
            return 0;
        }
        long t0 = System.nanoTime();
        to.fsync();
        return System.nanoTime() - t0;
    }

    /**
     * Makes {@value #UPLOADS} with mkdirat(2) on the held descriptor, so it is made in the opened directory even while
     * its path leads elsewhere (by path that was refused), and holds it. One there already (another upload or server
     * made it meanwhile) is checked like a new one: the hold refuses a symlink or a file, and it must be on the data
     * directory's file system (the rename must not cross one), both by descriptor.
     */
    private HeldDirectory makeUploadsDir(String shown) throws IOException {
        MakeDirectory.entry(names.directoryFd(), UPLOADS, 0777, shown);
        HeldDirectory dir = HeldDirectory.beneath(names.directoryFd(), UPLOADS_PATH, shown);
        try {
            FileIdentity made = FileIdentity.of(dir.fd());
            FileIdentity rootId = FileIdentity.of(names.directoryFd());
            if (made.devMajor() != rootId.devMajor() || made.devMinor() != rootId.devMinor()) {
                throw new AccessDeniedException(uploads.toString(), null, "the uploads' temp directory is on another file system than the data directory (a rename would fail)");
            }
            return dir;
        } catch (IOException | RuntimeException e) {
            dir.close();
            throw e;
        }
    }

    /** {@value #UPLOADS} must be a directory (not a symlink) on the data directory's file system. */
    private void checkUploadsDir() throws IOException {
        BasicFileAttributes a = Files.readAttributes(uploads, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!a.isDirectory()) {
            throw new AccessDeniedException(uploads.toString(), null, "the uploads' temp directory is not a directory (a symlink or a file)");
        }
        Object rootDev = Files.getAttribute(names.root(), "unix:dev");
        if (!rootDev.equals(Files.getAttribute(uploads, "unix:dev", LinkOption.NOFOLLOW_LINKS))) {
            throw new AccessDeniedException(uploads.toString(), null, "the uploads' temp directory is on another file system than the data directory (a rename would fail)");
        }
    }
}
