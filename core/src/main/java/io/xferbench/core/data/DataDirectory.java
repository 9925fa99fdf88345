package io.xferbench.core.data;

import io.xferbench.core.protocol.FileStat;
import io.xferbench.nativeio.EntryStat;
import io.xferbench.nativeio.RegularFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The only directory the server reads and writes: a facade over the parts that each own one job, so callers keep one
 * object and one set of rules.
 * <ul>
 *   <li>{@link ConfinedNames}: client names resolved inside the directory and nowhere else ({@code ..}, absolute
 *       paths, NUL bytes, hidden names and symlinks that leave it are refused); single names opened relative to a
 *       descriptor of the directory held for the server's life, whatever happens to its path. {@link ConfinedStat}
 *       answers STAT by the same rules.</li>
 *   <li>{@link GeneratedFiles}: the test files {@code xferbench-<size>.dat}, written on demand with deterministic
 *       content, checked for space before they write, leaving nothing behind on failure; their names in the directory
 *       itself are the server's ({@link #isGeneratedName}: no upload takes one, no DELETE removes one).</li>
 *   <li>{@link ChecksumRecords}: every served file's CRC32C, in memory and in a hidden record beside it, keyed by the
 *       identity of the bytes it was computed from, hashed only after the file's dirty pages are written back.</li>
 *   <li>{@link UploadLanding}: an upload's temp file (in {@value #UPLOADS} for the directory itself) and its rename
 *       into place, both by directory descriptors.</li>
 *   <li>{@link Deletions}: DELETE of a regular file (or a symlink to one) and its record, never anything swapped in.</li>
 * </ul>
 */
public final class DataDirectory implements AutoCloseable {
    /** Seed of generated files: fixed, so the same size always has the same bytes on every machine. */
    public static final long SEED = GeneratedFiles.SEED;
    /**
     * What writing a file here needs beyond its size, generated or uploaded: the block of its checksum record, the
     * data's last partial block and the file system's blocks that map the file (a few extent blocks on ext4 or XFS even at
     * 64 GiB). 1 MiB holds them with blocks up to 64 KiB and is nothing beside a file worth generating; with less, a
     * write that passed the check could still run out at its record. An upload of at most 1 MiB writes no record file
     * and is counted the same: one rule, which only the last MiB of a disk ever feels.
     */
    public static final long RECORD_AND_METADATA_ROOM = 1 << 20;
    /** The uploads' temp directory, inside the data directory ({@link UploadLanding}). */
    public static final String UPLOADS = UploadLanding.UPLOADS;

    private final ConfinedNames names;
    private final ConfinedStat stats;
    private final ChecksumRecords records;
    private final GeneratedFiles generated;
    private final UploadLanding landing;
    private final Deletions deletions;
    private final FreeSpace freeSpace;

    public DataDirectory(Path dir) throws IOException {
        this(dir, FreeSpace.OF_FILE_SYSTEM);
    }

    /** @param freeSpace what generations and uploads are checked against before they write (see {@link #requireSpace}) */
    public DataDirectory(Path dir, FreeSpace freeSpace) throws IOException {
        this.freeSpace = freeSpace;
        this.names = new ConfinedNames(dir);
        this.stats = new ConfinedStat(names);
        this.records = new ChecksumRecords(names);
        this.generated = new GeneratedFiles(names, records, freeSpace, RECORD_AND_METADATA_ROOM);
        this.landing = new UploadLanding(names, records);
        this.deletions = new Deletions(names, records);
    }

    /**
     * Releases the descriptors this holds (the directory's and the record cache's pinned inodes) now rather than when
     * it is collected. Opening files through it afterwards fails.
     */
    @Override
    public void close() throws IOException {
        records.close();
        names.close();
    }

    public Path root() {
        return names.root();
    }

    /** The descriptor of the directory as opened at start: single entries are looked up in it, wherever it moved. */
    public int directoryFd() {
        return names.directoryFd();
    }

    /**
     * Refuses a file of {@code size} bytes that would not fit in {@code dir}'s file system with its
     * {@link #RECORD_AND_METADATA_ROOM}, before a byte of it is written: generations ask here, and so must uploads into
     * this directory.
     *
     * @param what what is refused, for the message ("an upload")
     * @throws NotEnoughSpaceException naming the bytes needed and the bytes usable
     */
    public void requireSpace(Path dir, String what, long size) throws IOException {
        freeSpace.require(dir, what, size, RECORD_AND_METADATA_ROOM);
    }

    public static String generatedName(long size) {
        return GeneratedNames.of(size);
    }

    /**
     * Whether {@code entry}, a name in the directory itself, is a generated file's ({@link #generatedName} of a size).
     * Those names are the server's: no upload takes one ({@link #resolveNew}) and no DELETE removes one ({@link #delete}).
     */
    public static boolean isGeneratedName(String entry) {
        return GeneratedNames.isGenerated(entry);
    }

    /** The generated test file of {@code size} bytes, written now if missing; its name, size and CRC32C. */
    public TestFile generated(long size) throws IOException {
        try (OpenedFile f = openGenerated(size)) {
            return f.info();
        }
    }

    /** An existing file by client-supplied name, resolved safely, with its CRC32C (computed once, then kept). */
    public TestFile existing(String name) throws IOException {
        try (OpenedFile f = openExisting(name)) {
            return f.info();
        }
    }

    /**
     * The generated file of {@code size} bytes, opened, with the CRC32C of the opened bytes. Where it is there with its
     * record (every request but the first), no lock is taken; only writing it is serialized.
     */
    public OpenedFile openGenerated(long size) throws IOException {
        return generated.open(size);
    }

    /** An existing file by client-supplied name, opened, with the CRC32C of the opened bytes (hashed once, then kept). */
    public OpenedFile openExisting(String name) throws IOException {
        ConfinedNames.ByName byName = names.openByName(name);
        return records.checksummed(byName.path(), byName.opened(), name);
    }

    /**
     * The file {@link #openExisting} would open, when its checksum record (remembered, or the record file) matches the
     * opened descriptor; null when the file would have to be hashed first. For a caller that must not wait for a
     * file's bytes (an event loop): this touches metadata and the small record file only.
     */
    public OpenedFile openExistingIfRecorded(String name) throws IOException {
        ConfinedNames.ByName byName = names.openByName(name);
        return records.ifRecorded(byName.path(), byName.opened(), -1);
    }

    /**
     * The generated file {@link #openGenerated} would open, when it is there with a matching checksum record; null
     * when it would have to be written (or rewritten) first. Takes no generation lock.
     */
    public OpenedFile openGeneratedIfRecorded(long size) throws IOException {
        return generated.openIfRecorded(size);
    }

    /**
     * Whether {@code name} is a valid client-supplied name of one entry of the directory (no '/'): what
     * {@link #adoptIfRemembered} takes, opened by the caller relative to {@link #directoryFd()}.
     */
    public static boolean isSingleEntry(String name) {
        return ConfinedNames.isSingleEntry(name);
    }

    /**
     * The entry {@code entry} (see {@link #isSingleEntry}), which the caller opened as {@code fd} in
     * {@link #directoryFd()} by other means (an io_uring OPENAT with {@link RegularFiles#FLAGS}), when it is a regular
     * file and a checksum record of its bytes, of {@code size} bytes (-1: any), is remembered; else null, with
     * {@code fd} closed. Takes over {@code fd} in every case. Touches memory and the descriptor only, not even the
     * record file: for a caller that must not block (an event loop), which opens the rest another way.
     *
     * @throws AccessDeniedException if it is not a regular file
     */
    public OpenedFile adoptIfRemembered(String entry, int fd, long size) throws IOException {
        return records.ifRemembered(names.root().resolve(entry), RegularFiles.adopt(fd, entry), size);
    }

    /**
     * STAT: whether a regular file of this client-supplied name exists (same real-path rules as a download), with
     * its size and mtime. A name outside the directory, or a FIFO or directory, is refused, not reported absent.
     */
    public FileStat stat(String name) throws IOException {
        return stats.stat(name);
    }

    /**
     * STAT's answer from a statx of the entry {@code name} (see {@link #isSingleEntry}) in {@link #directoryFd()} made
     * by other means (an io_uring STATX, a symlink not followed): {@code res} 0 with {@code stat}, or a negated errno.
     * Null where only {@link #stat} can answer by its rules: a symlink (the real path decides), another type than a
     * regular file (refused there), an error other than absence.
     */
    public static FileStat statOfEntry(int res, EntryStat stat) {
        return ConfinedStat.ofEntry(res, stat);
    }

    /**
     * Resolves a client-supplied name of an existing regular file inside the directory.
     *
     * @throws AccessDeniedException if the name or its real path leaves the directory
     * @throws NoSuchFileException   if there is no such file
     */
    public Path resolveExisting(String name) throws IOException {
        return names.resolveExisting(name);
    }

    /**
     * Resolves a client-supplied name for a file to be created: its parent must be a directory inside the directory
     * (real path) and the name itself neither a symlink, a directory nor a generated file's name in the directory itself.
     */
    public Path resolveNew(String name) throws IOException {
        return names.resolveNew(name);
    }

    /**
     * Creates the temp file of an upload to {@code target} (a {@link #resolveNew} result): in {@value #UPLOADS} for a
     * target in the directory itself, beside the target for one in a subdirectory (which may be another mount: the
     * rename must not cross file systems). Reached by directory descriptors, never by a path a symlink could redirect.
     *
     * @throws AccessDeniedException if a directory on the way is no longer one (a symlink now, say)
     */
    public UploadTemp createUploadTemp(Path target) throws IOException {
        return landing.createTemp(target);
    }

    /**
     * Renames the upload's temp file over {@code target} (a file there is replaced, atomically): one renameat(2) from the
     * temp file's directory to the target's ({@link UploadLanding}).
     *
     * @param fsyncDirectory whether to fsync the target's directory after the rename
     * @return the nanos that fsync took, 0 without it
     * @throws AccessDeniedException if a directory on the way is no longer one, or a directory is at the target's name
     */
    public long placeUpload(UploadTemp tmp, Path target, boolean fsyncDirectory) throws IOException {
        return landing.place(tmp, target, fsyncDirectory);
    }

    /**
     * Records the CRC32C of an upload just renamed to {@code target}, from {@code placed}, the descriptor its verified
     * bytes were written through (still open: the rename keeps the inode, and the identity must be read after it,
     * since the rename sets the ctime). Nothing is opened by name: the record is keyed by the identity of that inode,
     * whatever the name leads to by now, so a file renamed over {@code target} meanwhile simply does not match it.
     * {@code placed} stays the caller's to close (a small file's entry pins its inode with a duplicate). Best effort:
     * without a record the first download hashes the file.
     *
     * @param verifiedSize the byte count that was verified: a descriptor that shows another size now is not recorded
     */
    public void recordPlaced(Path target, FileChannel placed, long verifiedSize, int crc32c) {
        records.recordPlaced(target, placed, verifiedSize, crc32c, null);
    }

    /**
     * {@link #recordPlaced(Path, FileChannel, long, int)} of {@code tmp}, just placed at {@code target} by
     * {@link #placeUpload}, whose record file (over 1 MiB) goes into the directory {@code tmp} holds when that is the
     * target's: no second walk of its levels.
     */
    public void recordPlaced(UploadTemp tmp, Path target, long verifiedSize, int crc32c) {
        landing.recordPlaced(tmp, target, verifiedSize, crc32c);
    }

    /**
     * DELETE: removes a regular file of this client-supplied name, then its checksum record ({@link Deletions}). A name
     * that is a symbolic link (to a regular file inside the directory) removes the link, as rm(1) does, not its target.
     *
     * @throws NoSuchFileException if there is none (also when another delete won the race)
     */
    public void delete(String name) throws IOException {
        deletions.delete(name);
    }

    /** Removes temporary files that killed servers left here (see {@link TempFiles}). */
    public List<TempFiles.Removed> removeStaleTempFiles() throws IOException {
        return TempFiles.removeStale(names.root());
    }

    /**
     * Removes checksum records whose file was deleted or renamed behind the server's back (see
     * {@link ChecksumRecordSweep}); for a server about to serve, not yet serving.
     */
    public ChecksumRecordSweep.Swept removeOrphanedRecords() throws IOException {
        return ChecksumRecordSweep.sweep(names.root());
    }

    /**
     * What a DELETE of {@code name} removes: the entry {@code last} of the directory {@code parent} (a real path inside
     * the data directory, not hidden). The named entry itself, so a symlink is removed and not its target; {@code link}
     * when it was checked as a symlink (to a regular file inside), else it was checked as a regular file.
     */
    record DeletionTarget(String name, Path parent, String last, boolean link) {
        Path path() {
            return parent.resolve(last);
        }
    }

    // Seams for the tests that act between a check and what follows it.

    /** What serializes writing the generated file {@code name}. */
    ReentrantLock generationLock(String name) {
        return generated.lock(name);
    }

    /** Whether the entry {@code name} of the held directory is the file open as {@code ours}. */
    boolean stillOurs(String name, FileChannel ours) throws IOException {
        return generated.stillOurs(name, ours);
    }

    /** Removes the entry {@code name} of the held directory, unless it is a directory by now. */
    void unlinkPlaced(String name) throws IOException {
        generated.unlinkPlaced(name);
    }

    /** Opens {@code real}, the real path {@code name} was checked by, through directories not followed. */
    ConfinedNames.ByName openResolved(String name, Path real) throws IOException {
        return names.openResolved(name, real);
    }

    /** STAT's answer for {@code real}, the real path {@code name} resolved to. */
    FileStat statOf(String name, Path real) throws IOException {
        return stats.of(name, real);
    }

    /** {@code name} checked as a DELETE checks it, and the entry to remove. */
    DeletionTarget deletionTarget(String name) throws IOException {
        return deletions.target(name);
    }

    /** Removes {@code target} as a DELETE does after its check. */
    void remove(DeletionTarget target) throws IOException {
        deletions.remove(target);
    }
}
