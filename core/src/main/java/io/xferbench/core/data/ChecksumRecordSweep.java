package io.xferbench.core.data;

import io.xferbench.core.protocol.Wire;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Removes checksum records whose file is gone: a file deleted or renamed by something other than the server (rm, mv)
 * leaves its hidden record beside the old name for good. A record is kept while a regular file of its name is there,
 * even one whose identity no longer matches it (rewritten behind the server's back): such a record is never trusted
 * (it names the identity it was computed from) and the first download replaces it.
 *
 * <p>The server sweeps at start, before it serves, so none of its own uploads or renames is under way. Another live
 * server on the same directory always places a file before it writes its record, so a record seen in a first listing
 * whose file is missing from a second listing, taken after it, has lost its file; should that name come back with a
 * new record just before the unlink, the price is one re-hash, never a wrong checksum. The walk goes through directory
 * descriptors ({@link SecureDirectoryStream}: openat and unlinkat, {@code O_NOFOLLOW}), so a symlink, or a directory
 * swapped for one meanwhile, is never followed out of the data directory; hidden directories ({@value
 * DataDirectory#UPLOADS}) hold no served file and are not entered.
 */
public final class ChecksumRecordSweep {
    /** No record lies deeper than the longest name a client can send reaches (one byte and a '/' per level). */
    static final int MAX_DEPTH = Wire.MAX_NAME_BYTES / 2;

    /** What a sweep removed: record files and their bytes; or why it could not run. */
    public record Swept(int records, long bytes, String skipped) {
    }

    private ChecksumRecordSweep() {
    }

    static Swept sweep(Path root) throws IOException {
        try (DirectoryStream<Path> top = Files.newDirectoryStream(root)) {
            if (!(top instanceof SecureDirectoryStream<Path> dir)) {
                return new Swept(0, 0, "this platform has no directory streams relative to a descriptor");
            }
            long[] removed = new long[2];
            sweep(dir, 1, removed);
            return new Swept((int) removed[0], removed[1], null);
        }
    }

    /** Sweeps {@code dir} (consumed: its entries are read once) and the directories under it. */
    private static void sweep(SecureDirectoryStream<Path> dir, int depth, long[] removed) throws IOException {
        Set<String> records = new HashSet<>();
        List<Long> recordBytes = new ArrayList<>();
        Set<String> recordsOfFiles = new HashSet<>();
        List<Path> subdirectories = new ArrayList<>();
        for (Path entry : dir) {
            Path name = entry.getFileName();
            String s = name.toString();
            BasicFileAttributes a = lstat(dir, name);
            if (a == null) {
                continue;
            }
            if (s.startsWith(".")) {
                if (a.isRegularFile() && ChecksumRecordName.isRecordName(s)) {
                    records.add(s);
                }
            } else if (a.isRegularFile()) {
                recordsOfFiles.add(ChecksumRecordName.of(s));
            } else if (a.isDirectory()) {
                subdirectories.add(name);
            }
        }
        records.removeAll(recordsOfFiles);
        if (!records.isEmpty()) {
            removeOrphans(dir, records, removed);
        }
        if (depth >= MAX_DEPTH) {
            return;
        }
        for (Path sub : subdirectories) {
            SecureDirectoryStream<Path> child;
            try {
                child = dir.newDirectoryStream(sub, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException gone) {
                // Removed, made a symlink or unreadable since the listing: nothing of ours to sweep there.
                continue;
            }
            try (child) {
                sweep(child, depth + 1, removed);
            } catch (IOException | DirectoryIteratorException unreadable) {
                // A directory that fails mid-listing keeps what it has; the rest of the tree is still swept.
            }
        }
    }

    /**
     * Unlinks the {@code candidates} whose file a second listing of {@code dir} does not show either (package-private:
     * a test stands in for a file placed after the first listing).
     */
    static void removeOrphans(SecureDirectoryStream<Path> dir, Set<String> candidates, long[] removed) throws IOException {
        try (SecureDirectoryStream<Path> again = dir.newDirectoryStream(Path.of("."), LinkOption.NOFOLLOW_LINKS)) {
            for (Path entry : again) {
                String s = entry.getFileName().toString();
                if (!s.startsWith(".") && candidates.contains(ChecksumRecordName.of(s))) {
                    BasicFileAttributes a = lstat(dir, entry.getFileName());
                    if (a != null && a.isRegularFile()) {
                        candidates.remove(ChecksumRecordName.of(s));
                    }
                }
            }
        }
        for (String record : candidates) {
            Path name = Path.of(record);
            BasicFileAttributes a = lstat(dir, name);
            if (a == null || !a.isRegularFile()) {
                continue;
            }
            try {
                dir.deleteFile(name);
                removed[0]++;
                removed[1] += a.size();
            } catch (IOException gone) {
                // Removed meanwhile (a DELETE of another server), or not ours to remove: left as it is.
            }
        }
    }

    /** The entry's own attributes (a symlink's, not its target's), or null when it is gone or cannot be read. */
    private static BasicFileAttributes lstat(SecureDirectoryStream<Path> dir, Path name) {
        try {
            return dir.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
        } catch (IOException e) {
            return null;
        }
    }
}
