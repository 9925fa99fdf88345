package io.xferbench.core.data;

import io.xferbench.core.protocol.FileStat;
import io.xferbench.nativeio.EntryStat;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.FileIdentity;
import io.xferbench.nativeio.HeldDirectory;
import io.xferbench.nativeio.MakeDirectory;
import io.xferbench.nativeio.OpenRegularFile;
import io.xferbench.nativeio.RegularFiles;
import io.xferbench.nativeio.Rename;
import io.xferbench.nativeio.Unlink;
import io.xferbench.nativeio.WriteBack;
import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * The only directory the server reads and writes. Names are resolved against the real path of the
 * directory and the real path of the result must stay inside it: {@code ..}, absolute paths, NUL bytes,
 * hidden names and symlinks that leave the directory are refused.
 *
 * <p>Generated test files ({@code xferbench-<size>.dat}) are created on demand with deterministic content; their names
 * in the directory itself are the server's ({@link #isGeneratedName}): no upload takes one, no DELETE removes one. Every
 * served file's CRC32C is kept in a hidden record ({@code .NAME.crc32c}, or a cut name and a hash for a long NAME:
 * {@link ChecksumRecordName}) keyed by the identity of the bytes it was computed from ({@link FileIdentity}: device,
 * inode and its generation, size, mtime, ctime, read from the open descriptor), so no request re-hashes a file and no
 * record can describe another file: an upload renamed over the name is another inode, and even a reused inode number
 * has a new generation and ctime. A file is hashed only after its dirty pages are written back ({@link WriteBack}),
 * between the statx its record is keyed by and the one that must still match after the hash: a page left dirty and
 * writable in a shared mapping takes further stores without any of those fields moving, while a written-back page
 * faults on the next store, which moves the mtime and ctime.
 * Files are opened with {@link RegularFiles} (never blocks on a FIFO, never follows a final symlink). A name of one
 * component is opened relative to a descriptor of the directory held for the server's life: one lookup, no walk
 * of the directory's path and no {@code readlink} per component, and confined to the directory whatever happens to
 * its path; a symlink there, or a name of several components, takes the real-path route.
 *
 * <p>A generation (or upload, {@link #requireSpace}) that cannot fit in the usable space ({@link FreeSpace}: its size
 * and {@link #RECORD_AND_METADATA_ROOM}) is refused before it writes. A failed generation leaves nothing behind: the
 * data goes to a temporary file renamed into place, then its record is written; a disk that fills anyway (another
 * writer) at any step removes what that request wrote, the placed file included.
 *
 * <p>Uploads into the directory itself are written in {@value #UPLOADS}, a hidden subdirectory (hidden names are the
 * server's: no client can name it or anything in it), and renamed from there into place: creating the temp file
 * then takes that directory's lock, not the data directory's, which the rename and every lookup need (nginx keeps
 * its {@code client_body_temp_path} apart for the same reason). It must be a real directory on the data
 * directory's file system (checked when it is made or found), so the rename stays a rename, never a copy.
 */
public final class DataDirectory implements AutoCloseable {
    /** Seed of generated files: fixed, so the same size always has the same bytes on every machine. */
    public static final long SEED = 0x5EEDF11EL;
    private static final int CHUNK = 1 << 20;
    /** 4: records made since files are written back before they are hashed; a 3 may describe bytes a mapping changed since. */
    private static final String RECORD_VERSION = "4";
    /** A file that keeps changing while it is hashed is refused after this many tries. */
    private static final int HASH_TRIES = 3;
    /**
     * What writing a file here needs beyond its size, generated or uploaded: the block of its checksum record, the
     * data's last partial block and the file system's blocks that map the file (a few extent blocks on ext4 or XFS even at
     * 64 GiB). 1 MiB holds them with blocks up to 64 KiB and is nothing beside a file worth generating; with less, a
     * write that passed the check could still run out at its record. An upload of at most 1 MiB writes no record file
     * and is counted the same: one rule, which only the last MiB of a disk ever feels.
     */
    public static final long RECORD_AND_METADATA_ROOM = 1 << 20;
    private static final Logger LOG = Logger.getLogger(DataDirectory.class.getName());
    /** The uploads' temp directory, inside the data directory (see the class comment). */
    public static final String UPLOADS = ".uploads";

    /** Releases the record cache's pinned descriptors of a directory object nobody holds any more. */
    private static final Cleaner CLEANER = Cleaner.create();

    private final Path root;
    /** The directory itself, open: single names are looked up in it (the JDK closes it when this is collected). */
    private final FileChannel rootDir;
    /** The directory's device and inode, to tell when {@link #root} stops leading to {@link #rootDir}. */
    private final Object rootKey;
    /**
     * A generated file's lock, by name. Locks, not monitors: a virtual thread that waited for a monitor is resumed
     * through the JDK's scheduler's external queues, which a busy scheduler can leave unserved (docs/robustness.md).
     */
    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    /** Records already read or written, matched against each opened descriptor exactly like the record on disk. */
    private final ChecksumRecordCache known = new ChecksumRecordCache();
    private final Cleaner.Cleanable released;
    private final Path uploads;
    private final FreeSpace freeSpace;

    public DataDirectory(Path dir) throws IOException {
        this(dir, FreeSpace.OF_FILE_SYSTEM);
    }

    /** @param freeSpace what generations and uploads are checked against before they write (see {@link #requireSpace}) */
    public DataDirectory(Path dir, FreeSpace freeSpace) throws IOException {
        this.freeSpace = freeSpace;
        Files.createDirectories(dir);
        this.root = dir.toRealPath();
        this.rootDir = FileChannel.open(root, StandardOpenOption.READ);
        this.rootKey = Files.readAttributes(root, BasicFileAttributes.class).fileKey();
        this.uploads = root.resolve(UPLOADS);
        // Made by the first upload (a directory only downloaded from stays as it is); one left here is checked now.
        if (Files.exists(uploads, LinkOption.NOFOLLOW_LINKS)) {
            checkUploadsDir();
        }
        ChecksumRecordCache cache = known;
        this.released = CLEANER.register(this, cache::clear);
    }

    /**
     * Releases the descriptors this holds (the directory's and the record cache's pinned inodes) now rather than when
     * it is collected. Opening files through it afterwards fails.
     */
    @Override
    public void close() throws IOException {
        released.clean();
        rootDir.close();
    }

    public Path root() {
        return root;
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
        return "xferbench-" + size + ".dat";
    }

    /**
     * Whether {@code entry}, a name in the directory itself, is a generated file's ({@link #generatedName} of a size).
     * Those names are the server's: an upload to one was served as the generated file (its record matched what was
     * uploaded) and never regenerated, so every later download of that size failed verification. No upload takes one
     * ({@link #resolveNew}) and no DELETE removes one ({@link #delete}).
     */
    public static boolean isGeneratedName(String entry) {
        if (!GENERATED_NAME.matcher(entry).matches()) {
            return false;
        }
        try {
            long size = Long.parseLong(entry.substring("xferbench-".length(), entry.length() - ".dat".length()));
            return generatedName(size).equals(entry);
        } catch (NumberFormatException tooLarge) {
            return false;
        }
    }

    private static final Pattern GENERATED_NAME = Pattern.compile("xferbench-[0-9]+\\.dat");

    /** Refuses {@code entry}, the last component of the client's {@code name}, when it is a generated file's name in the directory itself. */
    private static void refuseGeneratedName(String name, String entry) throws AccessDeniedException {
        if (isGeneratedName(entry)) {
            throw new AccessDeniedException(name, null, "the name of a generated test file, reserved for the server");
        }
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
     * record (every request but the first), no lock is taken: hundreds of connections downloading the same file must
     * not queue on one lock for an open; only writing it is serialized.
     */
    public OpenedFile openGenerated(long size) throws IOException {
        OpenedFile ready = openGeneratedIfRecorded(size);
        if (ready != null) {
            return ready;
        }
        String name = generatedName(size);
        Path path = root.resolve(name);
        ReentrantLock lock = generationLock(name);
        lock.lock();
        try {
            OpenRegularFile opened;
            try {
                opened = RegularFiles.openIn(rootDir, name);
            } catch (NoSuchFileException e) {
                checkRootUnmoved();
                return generate(path, size);
            }
            try {
                Integer crc = opened.size() == size ? readRecord(path, opened) : null;
                if (crc != null) {
                    return new OpenedFile(path, opened.channel(), size, crc);
                }
            } catch (IOException | RuntimeException e) {
                opened.close();
                throw e;
            }
            // No trustworthy record for what is there: the generated name is ours, so write it anew.
            opened.close();
            checkRootUnmoved();
            return generate(path, size);
        } finally {
            lock.unlock();
        }
    }

    /** What serializes writing the generated file {@code name}; package-private for tests. */
    ReentrantLock generationLock(String name) {
        return locks.computeIfAbsent(name, k -> new ReentrantLock());
    }

    /** An existing file by client-supplied name, opened, with the CRC32C of the opened bytes. */
    public OpenedFile openExisting(String name) throws IOException {
        ByName byName = openByName(name);
        Path path = byName.path();
        OpenRegularFile opened = byName.opened();
        try {
            Integer crc = readRecord(path, opened);
            if (crc != null) {
                return new OpenedFile(path, opened.channel(), opened.size(), crc);
            }
            FileChannel channel = opened.channel();
            FileIdentity id = opened.identity();
            for (int attempt = 1; ; attempt++) {
                // After the statx that took `id`: a store since to a page written back here faults and moves `after`.
                boolean writtenBack = writeBack(channel, name);
                crc = hash(channel, id.size());
                FileIdentity after = FileIdentity.of(channel);
                if (id.equals(after)) {
                    if (writtenBack) {
                        recordQuietly(path, id, crc);
                    }
                    return new OpenedFile(path, channel, id.size(), crc);
                }
                if (attempt == HASH_TRIES) {
                    throw new IOException(name + " kept changing while it was hashed (" + HASH_TRIES + " tries)");
                }
                // Changed while hashed: another server may have recorded what it is now.
                id = after;
                crc = readRecord(path, id);
                if (crc != null) {
                    return new OpenedFile(path, channel, id.size(), crc);
                }
            }
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    /** A client-supplied name opened as a regular file, and the path its record lives beside. */
    record ByName(Path path, OpenRegularFile opened) {
    }

    /**
     * A single name is opened in the held directory (openat, no walk of the path); a symlink there or a name with
     * '/' takes the real-path route.
     */
    private ByName openByName(String name) throws IOException {
        if (checkName(name).indexOf('/') < 0) {
            try {
                return new ByName(root.resolve(name), RegularFiles.openIn(rootDir, name));
            } catch (NoSuchFileException e) {
                throw new NoSuchFileException(name, null, "no such file in the data directory");
            } catch (RegularFiles.SymbolicLinkException e) {
                // A symlink may still lead inside the directory: the real-path route decides.
            }
        }
        return openResolved(name, resolveExisting(name));
    }

    /**
     * Opens {@code real}, the real path {@code name} was checked by, in its directory reached from the held one through
     * directories not followed ({@link RegularFiles#openBeneath}); package-private so a test can swap one first. By path,
     * a directory on the way swapped for a symlink leading out since was followed, and the file out there served.
     */
    ByName openResolved(String name, Path real) throws IOException {
        return new ByName(real, RegularFiles.openBeneath(directoryFd(), directoriesOf(real.getParent()),
                real.getFileName().toString(), name));
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
        recordPlaced(target, placed, verifiedSize, crc32c, null);
    }

    /**
     * {@link #recordPlaced(Path, FileChannel, long, int)} of {@code tmp}, just placed at {@code target} by
     * {@link #placeUpload}, whose record file (over 1 MiB) goes into the directory {@code tmp} holds when that is the
     * target's: no second walk of its levels.
     */
    public void recordPlaced(UploadTemp tmp, Path target, long verifiedSize, int crc32c) {
        recordPlaced(target, tmp.channel(), verifiedSize, crc32c, besideTarget(tmp, target) ? tmp.directory() : null);
    }

    /** @param held {@code target}'s directory, held; null to reach it from the held data directory */
    private void recordPlaced(Path target, FileChannel placed, long verifiedSize, int crc32c, HeldDirectory held) {
        try {
            OpenRegularFile file = RegularFiles.describe(placed);
            if (file.size() != verifiedSize) {
                return;
            }
            if (file.size() <= ChecksumRecordCache.PIN_MAX_BYTES) {
                // Small: remembered in memory (with its inode pinned) but no record file. Writing one is a second
                // file created and renamed per upload, a third of a small upload's CPU; after a restart the first
                // download hashes the file instead, which for at most 1 MiB costs about what the record saved.
                known.remember(target, file, crc32c);
            } else if (held != null) {
                writeRecordIn(held, target, file.identity(), crc32c);
            } else {
                recordQuietly(target, file.identity(), crc32c);
            }
        } catch (IOException e) {
            LOG.warning("no checksum record for " + target + ": " + e.getMessage());
        }
    }

    /**
     * Creates the temp file of an upload to {@code target} (a {@link #resolveNew} result): in {@value #UPLOADS} for a
     * target in the directory itself, beside the target for one in a subdirectory (which may be another mount: the
     * rename must not cross file systems). Its directory is reached from the held one through directories not followed
     * ({@link HeldDirectory}): by path, a directory of the target's path swapped for a symlink leading out since the
     * check had the body written out there.
     *
     * @throws AccessDeniedException if a directory on the way is no longer one (a symlink now, say)
     */
    public UploadTemp createUploadTemp(Path target) throws IOException {
        Path parent = target.getParent();
        String label = target.getFileName().toString();
        String shown = shown(target);
        if (!parent.equals(root)) {
            return createIn(HeldDirectory.beneath(directoryFd(), directoriesOf(parent), shown), TempFiles.next(parent, label));
        }
        HeldDirectory dir;
        try {
            dir = HeldDirectory.beneath(directoryFd(), UPLOADS_PATH, shown);
        } catch (NoSuchFileException e) {
            // The first upload, or the directory was removed: made and checked then, not per upload.
            dir = makeUploadsDir(shown);
        }
        return createIn(dir, TempFiles.next(uploads, label));
    }

    private static final List<String> UPLOADS_PATH = List.of(UPLOADS);

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
     * @param fsyncDirectory whether to fsync the target's directory after the rename
     * @return the nanos that fsync took, 0 without it
     * @throws AccessDeniedException if a directory on the way is no longer one, or a directory is at the target's name
     */
    public long placeUpload(UploadTemp tmp, Path target, boolean fsyncDirectory) throws IOException {
        String shown = shown(target);
        if (besideTarget(tmp, target)) {
            return renameInto(tmp, tmp.directory(), target, shown, fsyncDirectory);
        }
        try (HeldDirectory to = HeldDirectory.beneath(directoryFd(), directoriesOf(target.getParent()), shown)) {
            return renameInto(tmp, to, target, shown, fsyncDirectory);
        }
    }

    /** Whether {@code tmp} was created in {@code target}'s directory, which it holds (see {@link #createUploadTemp}). */
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

    /** {@code path}, inside the directory, as the client names it. */
    private String shown(Path path) {
        return root.relativize(path).toString();
    }

    /**
     * Makes {@value #UPLOADS} with mkdirat(2) on the held descriptor, so it is made in the opened directory even while
     * its path leads elsewhere (by path that was refused), and holds it. One there already (another upload or server
     * made it meanwhile) is checked like a new one: the hold refuses a symlink or a file, and it must be on the data
     * directory's file system (the rename must not cross one), both by descriptor.
     */
    private HeldDirectory makeUploadsDir(String shown) throws IOException {
        MakeDirectory.entry(directoryFd(), UPLOADS, 0777, shown);
        HeldDirectory dir = HeldDirectory.beneath(directoryFd(), UPLOADS_PATH, shown);
        try {
            FileIdentity made = FileIdentity.of(dir.fd());
            FileIdentity rootId = FileIdentity.of(directoryFd());
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
        Object rootDev = Files.getAttribute(root, "unix:dev");
        if (!rootDev.equals(Files.getAttribute(uploads, "unix:dev", LinkOption.NOFOLLOW_LINKS))) {
            throw new AccessDeniedException(uploads.toString(), null, "the uploads' temp directory is on another file system than the data directory (a rename would fail)");
        }
    }

    /**
     * STAT: whether a regular file of this client-supplied name exists (same real-path rules as a download), with
     * its size and mtime. A name outside the directory, or a FIFO or directory, is refused, not reported absent.
     */
    public FileStat stat(String name) throws IOException {
        if (checkName(name).indexOf('/') < 0) {
            FileStat entry = statSingleEntry(name);
            if (entry != null) {
                return entry;
            }
        }
        Path real;
        try {
            real = realPathOf(name);
        } catch (NoSuchFileException e) {
            return FileStat.ABSENT;
        }
        return statOf(name, real);
    }

    /**
     * STAT's answer for the single name {@code name} from one statx of it in the held directory, as its download opens
     * there: no real path of the directory's path (toRealPath was a readlink per component of it, 4 for a name three
     * levels below /). Null for a symlink, which the real path decides (in or out).
     *
     * @throws AccessDeniedException if it is neither a regular file nor a symlink
     */
    private FileStat statSingleEntry(String name) throws IOException {
        EntryStat st;
        try {
            st = EntryStat.beneath(directoryFd(), List.of(), name, name);
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
     * type ({@link #regularEntry}); package-private so a test can swap what is there first. It was a second lstat, by
     * path and untyped: a file swapped for a directory or FIFO since was told as a file, and one through a directory
     * swapped for a symlink was a file outside.
     */
    FileStat statOf(String name, Path real) throws IOException {
        try {
            EntryStat st = regularEntry(name, real);
            return new FileStat(true, st.size(), st.mtimeNanos());
        } catch (NoSuchFileException deletedMeanwhile) {
            return FileStat.ABSENT;
        }
    }

    /**
     * DELETE: removes a regular file of this client-supplied name, then its checksum record. A download that already
     * opened it goes on sending the whole old file (the unlinked inode stays readable); a later one is NOT_FOUND. A name
     * that is a symbolic link (to a regular file inside the directory) removes the link, as rm(1) does, not its target.
     * Never a directory, whatever is swapped in after the checks ({@link #remove}).
     *
     * @throws NoSuchFileException if there is none (also when another delete won the race), after releasing what was
     *                             still held for a file removed behind the server's back ({@link #releaseGone})
     */
    public void delete(String name) throws IOException {
        remove(deletionTarget(name));
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

    /**
     * {@code name} checked as a DELETE checks it (a regular file, or a symlink to one, inside the directory), and the
     * entry to remove; package-private so a test can swap what is there before {@link #remove}.
     */
    DeletionTarget deletionTarget(String name) throws IOException {
        if (name.indexOf('/') < 0) {
            refuseGeneratedName(name, name);
        }
        Path real;
        try {
            real = resolveExisting(name);
        } catch (NoSuchFileException e) {
            releaseGone(name);
            throw e;
        }
        int slash = name.lastIndexOf('/');
        if (slash < 0) {
            return new DeletionTarget(name, root, name, !real.equals(root.resolve(name)));
        }
        // The final component may be a symlink, whose real path says nothing of where the link itself is.
        Path parent;
        try {
            parent = root.resolve(name.substring(0, slash)).toRealPath();
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "no such file in the data directory");
        }
        if (!parent.startsWith(root)) {
            throw new AccessDeniedException(name, null, "resolves outside the data directory");
        }
        if (reserved(parent)) {
            throw new AccessDeniedException(name, null, "resolves to a hidden name, reserved for the server");
        }
        String last = name.substring(slash + 1);
        // A directory leading back to the data directory itself (a symlink to it) names a generated file too.
        if (parent.equals(root)) {
            refuseGeneratedName(name, last);
        }
        return new DeletionTarget(name, parent, last, !real.equals(parent.resolve(last)));
    }

    /**
     * Removes the target, then forgets and unlinks its checksum record, in the target's directory reached once from the
     * held one through directories not followed ({@link HeldDirectory}): by path, a directory on the way swapped for a
     * symlink leading out had the file out there removed. The target is moved to a private name first and removed only
     * if what was moved is what the check found, a regular file (or a symlink where one was checked), else it is moved
     * back ({@link AsideUnlink}): unlinkat(2) refuses only a directory, so a FIFO, socket or symlink swapped in at the
     * name after the check went with it. A different regular file there by then (an upload placed meanwhile) is removed:
     * a DELETE removes what the name is when it acts, as rm(1) does.
     *
     * @throws AccessDeniedException "not a regular file" where anything else is there now (left as it is), the answer a
     *                               directory or FIFO named in a DELETE gets; or a directory on the way is no longer one
     */
    void remove(DeletionTarget target) throws IOException {
        // The directories are walked from the held descriptor: its path must still lead there, where the checks looked.
        checkRootUnmoved();
        try (HeldDirectory dir = HeldDirectory.beneath(directoryFd(), directoriesOf(target.parent()), target.name())) {
            AsideUnlink.remove(dir, target.parent(), target.last(), target.link(), target.name());
            known.forget(target.path());
            unlinkRecord(dir.fd(), target.path());
        }
    }

    /** Removes {@code file}'s record file if there is one; a directory of its name is not the server's and stays. */
    private void unlinkRecord(List<String> directories, Path file) throws IOException {
        try (HeldDirectory dir = HeldDirectory.beneath(directoryFd(), directories, file.getFileName().toString())) {
            unlinkRecord(dir.fd(), file);
        }
    }

    /** {@code file}'s record file removed from {@code dirfd}, its directory, if there is one (not a directory). */
    private static void unlinkRecord(int dirfd, Path file) throws IOException {
        String record = ChecksumRecordName.of(file.getFileName().toString());
        try {
            Unlink.entry(dirfd, record, record);
        } catch (NoSuchFileException | Unlink.DirectoryException e) {
            // None, or not a record.
        }
    }

    /** The components of {@code dir}, a real path inside the directory (or the directory), below the directory. */
    private List<String> directoriesOf(Path dir) {
        List<String> names = new ArrayList<>(dir.getNameCount());
        for (Path part : root.relativize(dir)) {
            if (!part.toString().isEmpty()) {
                names.add(part.toString());
            }
        }
        return names;
    }

    /**
     * What the server still holds for a name whose file was removed behind its back (rm, mv): the remembered record
     * with its pinned inode, whose blocks stay allocated while it is held, and the record file. A DELETE that finds no
     * file releases them, where they waited for the cache to start over or the next start's sweep. Best effort, and
     * only while the name is still absent: a file placed meanwhile loses at most its record (a re-hash).
     */
    private void releaseGone(String name) {
        Path target;
        try {
            target = resolveNew(name);
        } catch (IOException | RuntimeException e) {
            return;
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        known.forget(target);
        try {
            checkRootUnmoved();
            unlinkRecord(directoriesOf(target.getParent()), target);
        } catch (IOException e) {
            // Swept at the next start.
        }
    }

    /**
     * The file {@link #openExisting} would open, when its checksum record (remembered, or the record file) matches the
     * opened descriptor; null when the file would have to be hashed first. For a caller that must not wait for a
     * file's bytes (an event loop): this touches metadata and the small record file only.
     */
    public OpenedFile openExistingIfRecorded(String name) throws IOException {
        ByName byName = openByName(name);
        return ifRecorded(byName.path(), byName.opened(), -1);
    }

    /**
     * The generated file {@link #openGenerated} would open, when it is there with a matching checksum record; null
     * when it would have to be written (or rewritten) first. Takes no generation lock: a record never vouches for
     * other bytes, and a file renamed into place before its record is written is just null.
     */
    public OpenedFile openGeneratedIfRecorded(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size);
        }
        String name = generatedName(size);
        OpenRegularFile opened;
        try {
            opened = RegularFiles.openIn(rootDir, name);
        } catch (NoSuchFileException e) {
            return null;
        }
        return ifRecorded(root.resolve(name), opened, size);
    }

    /**
     * Whether {@code name} is a valid client-supplied name of one entry of the directory (no '/'): what
     * {@link #adoptIfRemembered} takes, opened by the caller relative to {@link #directoryFd()}.
     */
    public static boolean isSingleEntry(String name) {
        try {
            return checkName(name).indexOf('/') < 0;
        } catch (AccessDeniedException e) {
            return false;
        }
    }

    /**
     * STAT's answer from a statx of the entry {@code name} (see {@link #isSingleEntry}) in {@link #directoryFd()} made
     * by other means (an io_uring STATX, a symlink not followed): {@code res} 0 with {@code stat}, or a negated errno.
     * Null where only {@link #stat} can answer by its rules: a symlink (the real path decides), another type than a
     * regular file (refused there), an error other than absence.
     */
    public static FileStat statOfEntry(int res, EntryStat stat) {
        if (res == -Errno.ENOENT) {
            return FileStat.ABSENT;
        }
        return res == 0 && stat.regular() ? new FileStat(true, stat.size(), stat.mtimeNanos()) : null;
    }

    /** The descriptor of the directory as opened at start: single entries are looked up in it, wherever it moved. */
    public int directoryFd() {
        return Fds.of(rootDir);
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
        OpenRegularFile opened = RegularFiles.adopt(fd, entry);
        Path path = root.resolve(entry);
        Integer crc = size < 0 || opened.size() == size ? known.lookup(path, opened) : null;
        if (crc == null) {
            opened.close();
            return null;
        }
        return new OpenedFile(path, opened.channel(), opened.size(), crc);
    }

    /** {@code opened} with its recorded CRC32C, or null (and closed) without a record for it of {@code size} (-1: any). */
    private OpenedFile ifRecorded(Path path, OpenRegularFile opened, long size) throws IOException {
        try {
            Integer crc = size < 0 || opened.size() == size ? readRecord(path, opened) : null;
            if (crc != null) {
                return new OpenedFile(path, opened.channel(), opened.size(), crc);
            }
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
        opened.close();
        return null;
    }

    /** Removes temporary files that killed servers left here (see {@link TempFiles}). */
    public List<TempFiles.Removed> removeStaleTempFiles() throws IOException {
        return TempFiles.removeStale(root);
    }

    /**
     * Removes checksum records whose file was deleted or renamed behind the server's back (see
     * {@link ChecksumRecordSweep}); for a server about to serve, not yet serving.
     */
    public ChecksumRecordSweep.Swept removeOrphanedRecords() throws IOException {
        return ChecksumRecordSweep.sweep(root);
    }

    /**
     * Resolves a client-supplied name of an existing regular file inside the directory.
     *
     * @throws AccessDeniedException if the name or its real path leaves the directory
     * @throws NoSuchFileException   if there is no such file
     */
    public Path resolveExisting(String name) throws IOException {
        Path real = realPathOf(name);
        regularEntry(name, real);
        return real;
    }

    /** The real path of an existing name, inside the directory and not hidden; of any type. */
    private Path realPathOf(String name) throws IOException {
        Path candidate = root.resolve(checkName(name));
        Path real;
        try {
            real = candidate.toRealPath();
        } catch (NoSuchFileException e) {
            // Absent, unless what exists of the name leaves the directory: out there, absence is not told apart.
            IOException why = ResolutionFailure.ofName(root, name);
            throw why != null ? why : new NoSuchFileException(name, null, "no such file in the data directory");
        } catch (AccessDeniedException e) {
            throw e;
        } catch (FileSystemException e) {
            // ENOTDIR: which component is not a directory, or that the name leads out (a symlink to a file outside).
            IOException why = ResolutionFailure.ofName(root, name);
            throw why != null ? why : e;
        }
        if (!real.startsWith(root) || real.equals(root)) {
            throw new AccessDeniedException(name, null, "resolves outside the data directory");
        }
        if (reserved(real)) {
            throw new AccessDeniedException(name, null, "resolves to a hidden name, reserved for the server");
        }
        return real;
    }

    /**
     * What is at {@code real} (a {@link #realPathOf} result) now, which must be a regular file: one statx of the entry,
     * without following it, in its directory reached from the held one through directories not followed either. A
     * second look by path went through a directory swapped for a symlink since, and told a file outside.
     *
     * @throws NoSuchFileException   if it is gone (deleted since the real path was taken)
     * @throws AccessDeniedException if it is not a regular file, or a directory on the way is no longer one
     */
    private EntryStat regularEntry(String name, Path real) throws IOException {
        EntryStat st;
        try {
            st = EntryStat.beneath(directoryFd(), directoriesOf(real.getParent()), real.getFileName().toString(), name);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "no such file in the data directory");
        }
        if (!st.regular()) {
            throw new AccessDeniedException(name, null, "not a regular file");
        }
        return st;
    }

    /**
     * Resolves a client-supplied name for a file to be created: its parent must be a directory inside the directory
     * (real path) and the name itself must be neither a symlink nor a directory. A single name's parent is the held
     * directory, where its temp file, rename and record go by descriptor ({@link #createUploadTemp}): one statx of the
     * name there, no {@code readlink} per component of {@code toRealPath} and no look at where the directory's path
     * leads.
     */
    public Path resolveNew(String name) throws IOException {
        Path target;
        if (checkName(name).indexOf('/') < 0) {
            refuseGeneratedName(name, name);
            EntryStat there;
            try {
                there = EntryStat.beneath(directoryFd(), List.of(), name, name);
            } catch (NoSuchFileException e) {
                return root.resolve(name);
            }
            if (there.symbolicLink()) {
                throw new AccessDeniedException(name, null, "is a symbolic link");
            }
            if (there.directory()) {
                throw new AccessDeniedException(name, null, "is a directory");
            }
            return root.resolve(name);
        } else {
            Path candidate = root.resolve(name);
            Path parent;
            try {
                parent = candidate.getParent().toRealPath();
            } catch (AccessDeniedException e) {
                throw e;
            } catch (FileSystemException e) {
                // Absent or ENOTDIR somewhere up: told in the client's terms where a component explains it.
                IOException why = ResolutionFailure.ofParent(root, name);
                throw why != null ? why : e;
            }
            if (!parent.startsWith(root)) {
                throw new AccessDeniedException(name, null, "resolves outside the data directory");
            }
            if (reserved(parent)) {
                throw new AccessDeniedException(name, null, "resolves to a hidden name, reserved for the server");
            }
            if (parent.equals(root)) {
                refuseGeneratedName(name, candidate.getFileName().toString());
            }
            target = parent.resolve(candidate.getFileName());
        }
        // One lstat for both refusals (Files.isSymbolicLink and isDirectory would take one each).
        BasicFileAttributes there;
        try {
            there = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            checkParentIsDirectory(name, target.getParent());
            return target;
        }
        if (there.isSymbolicLink()) {
            throw new AccessDeniedException(name, null, "is a symbolic link");
        }
        if (there.isDirectory()) {
            throw new AccessDeniedException(name, null, "is a directory");
        }
        return target;
    }

    /**
     * The JDK reports the lstat of {@code base/x} under a regular file {@code base} (ENOTDIR) as absence, and the
     * upload then failed at its temp file, whose name it told ({@code base/.tmp-…: Not a directory}). Refused here
     * instead, naming what the client asked; a FileSystemException, as STAT and DELETE get for that path. The
     * directory itself is one (checked as unmoved); only a new target in a subdirectory costs this stat.
     */
    private void checkParentIsDirectory(String name, Path parent) throws IOException {
        if (parent.equals(root)) {
            return;
        }
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(parent, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "its directory is gone");
        }
        if (!a.isDirectory()) {
            throw new FileSystemException(name, null, name.substring(0, name.lastIndexOf('/')) + " is not a directory");
        }
    }

    /**
     * Single names are opened in {@link #rootDir}, but records and generated files are read and written by path: before
     * that, the path must still lead to the directory opened (one statx, on a cache miss only), or a record could be
     * read from or written to wherever the path was redirected.
     */
    private void checkRootUnmoved() throws IOException {
        Object now;
        try {
            now = Files.readAttributes(root, BasicFileAttributes.class).fileKey();
        } catch (NoSuchFileException e) {
            now = null;
        }
        if (!rootKey.equals(now)) {
            throw new AccessDeniedException(root.toString(), null, "the data directory's path no longer leads to the directory the server opened");
        }
    }

    /**
     * Whether a real path inside the directory passes through a hidden name (a symlink can lead there although no
     * client may name it): the uploads' temp directory, checksum records.
     */
    private boolean reserved(Path real) {
        for (Path part : root.relativize(real)) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** Rejects what is never a valid name before touching the file system. */
    private static String checkName(String name) throws AccessDeniedException {
        if (name == null || name.isEmpty()) {
            throw new AccessDeniedException("", null, "empty file name");
        }
        if (name.indexOf('\0') >= 0) {
            throw new AccessDeniedException(name.replace('\0', '?'), null, "NUL byte in file name");
        }
        if (name.startsWith("/") || name.contains("\\")) {
            throw new AccessDeniedException(name, null, "absolute paths and backslashes are not allowed");
        }
        for (String segment : name.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new AccessDeniedException(name, null, "empty, '.' or '..' path segment");
            }
            if (segment.startsWith(".")) {
                throw new AccessDeniedException(name, null, "hidden names are reserved for the server");
            }
            // Refused before any system call.
            if (segment.getBytes(StandardCharsets.UTF_8).length > NameMax.BYTES) {
                throw new AccessDeniedException(name, null, "a path segment longer than " + NameMax.BYTES + " bytes (NAME_MAX)");
            }
        }
        return name;
    }

    private OpenedFile generate(Path path, long size) throws IOException {
        String label = path.getFileName().toString();
        for (TempFiles.Removed r : TempFiles.removeStale(root, label)) {
            LOG.info(() -> "removed " + r.path() + " (" + r.bytes() + " bytes), left by a killed run while it made " + label);
        }
        // After the sweep above, which may have given space back.
        requireSpace(root, "the generated file", size);
        Path tmp = TempFiles.next(root, label);
        try {
            tmp.toFile().deleteOnExit(); // Ctrl-C and SIGTERM in the middle; gone already once renamed into place
        } catch (IllegalStateException shuttingDown) {
            // A generation asked for during the shutdown grace: a failed one is still removed below.
        }
        ContentGenerator generator = new ContentGenerator(SEED);
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
        FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        boolean placed = false;
        try {
            for (long pos = 0; pos < size; ) {
                int n = (int) Math.min(CHUNK, size - pos);
                buf.clear().limit(n);
                generator.fill(buf, pos);
                buf.flip();
                crc.update(buf.duplicate());
                while (buf.hasRemaining()) {
                    pos += out.write(buf, pos);
                }
            }
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            placed = true;
            // After the rename, which sets the ctime the record is keyed by.
            writeRecord(path, FileIdentity.of(out), (int) crc.getValue());
            return new OpenedFile(path, out, size, (int) crc.getValue());
        } catch (IOException | RuntimeException e) {
            try {
                if (placed) {
                    removeIfStill(path.getFileName().toString(), out);
                } else {
                    Files.deleteIfExists(tmp);
                }
            } finally {
                out.close();
            }
            throw e;
        }
    }

    /** Unlinks the generated file {@code name} if it still is the file open as {@code ours} (another server may have replaced it). */
    private void removeIfStill(String name, FileChannel ours) throws IOException {
        if (stillOurs(name, ours)) {
            unlinkPlaced(name);
        }
    }

    /** Whether the entry {@code name} of the held directory is the file open as {@code ours}; package-private for a test. */
    boolean stillOurs(String name, FileChannel ours) throws IOException {
        try (OpenRegularFile now = RegularFiles.openIn(rootDir, name)) {
            return now.identity().sameInode(FileIdentity.of(ours));
        } catch (NoSuchFileException | AccessDeniedException gone) {
            return false;
        }
    }

    /**
     * Removes the entry {@code name} of the held directory by one unlinkat(2), which the kernel refuses for a directory
     * ({@link Unlink}); package-private for a test. Files.deleteIfExists lstat()ed, then removed by what it saw, so a
     * file swapped for an empty directory since {@link #stillOurs} lost the directory; and it went by the path.
     */
    void unlinkPlaced(String name) throws IOException {
        try {
            Unlink.entry(directoryFd(), name, name);
        } catch (NoSuchFileException | Unlink.DirectoryException notOurs) {
            // Gone, or a directory now: not the generation's to remove.
        }
    }

    /**
     * Writes {@code channel}'s dirty pages back ({@link WriteBack}), so that no page stays writable through a shared
     * mapping without a fault; false, with a warning, when that failed: the bytes about to be hashed are still served
     * with their checksum, but not recorded.
     */
    private static boolean writeBack(FileChannel channel, String name) {
        try {
            WriteBack.dirtyPages(channel, name);
            return true;
        } catch (IOException e) {
            LOG.warning("no checksum record for " + name + ": " + e.getMessage());
            return false;
        }
    }

    private static int hash(FileChannel channel, long size) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
        for (long pos = 0; pos < size; ) {
            buf.clear().limit((int) Math.min(CHUNK, size - pos));
            int n = channel.read(buf, pos);
            if (n < 0) {
                throw new IOException("file shrank to " + pos + " of " + size + " bytes while it was hashed");
            }
            crc.update(buf.flip());
            pos += n;
        }
        return (int) crc.getValue();
    }

    /** The recorded CRC32C of the bytes open as {@code opened}, from memory or from the record file; or null. */
    private Integer readRecord(Path file, OpenRegularFile opened) throws IOException {
        Integer crc = known.lookup(file, opened);
        if (crc != null) {
            return crc;
        }
        checkRootUnmoved();
        crc = readRecordFile(file, opened.identity());
        if (crc != null) {
            known.remember(file, opened, crc);
        }
        return crc;
    }

    /** The recorded CRC32C of the bytes with identity {@code id}, from memory or from the record file; or null. */
    private Integer readRecord(Path file, FileIdentity id) throws IOException {
        Integer crc = known.lookup(file, id);
        if (crc != null) {
            return crc;
        }
        crc = readRecordFile(file, id);
        if (crc != null) {
            known.remember(file, id, crc);
        }
        return crc;
    }


    /** Record line: {@code 4 <FileIdentity.encode()> <crc32c-hex>}; another identity (or version) means absent. */
    private static Integer readRecordFile(Path file, FileIdentity id) throws IOException {
        String line;
        try {
            line = Files.readString(ChecksumRecordName.of(file), StandardCharsets.US_ASCII).trim();
        } catch (NoSuchFileException e) {
            return null;
        }
        String[] parts = line.split(" ");
        if (parts.length != 8 || !parts[0].equals(RECORD_VERSION)) {
            return null;
        }
        try {
            FileIdentity recorded = FileIdentity.decode(String.join(" ", java.util.Arrays.asList(parts).subList(1, 7)));
            return recorded.equals(id) ? Integer.parseUnsignedInt(parts[7], 16) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Atomically replaces the record of {@code file} (a path inside the directory); on failure nothing of it stays
     * behind. Its temp file is created and renamed in the file's directory reached from the held one through directories
     * not followed ({@link HeldDirectory}): by path, a directory swapped for a symlink leading out had the record written
     * out there.
     */
    private void writeRecord(Path file, FileIdentity id, int crc32c) throws IOException {
        try (HeldDirectory dir = HeldDirectory.beneath(directoryFd(), directoriesOf(file.getParent()), shown(file))) {
            writeRecordIn(dir, file, id, crc32c);
        }
    }

    /** {@link #writeRecord} into {@code dir}, {@code file}'s directory, held. */
    private void writeRecordIn(HeldDirectory dir, Path file, FileIdentity id, int crc32c) throws IOException {
        byte[] line = (RECORD_VERSION + " " + id.encode() + " " + Integer.toHexString(crc32c) + "\n").getBytes(StandardCharsets.US_ASCII);
        String record = ChecksumRecordName.of(file.getFileName().toString());
        String tmp = TempFiles.next(file.getParent(), record).getFileName().toString();
        try {
            try (FileChannel out = dir.create(tmp, tmp)) {
                for (ByteBuffer b = ByteBuffer.wrap(line); b.hasRemaining(); ) {
                    out.write(b);
                }
            }
            Rename.entry(dir.fd(), tmp, dir.fd(), record, record);
        } catch (IOException | RuntimeException e) {
            dir.unlinkIfPresent(tmp);
            throw e;
        }
        known.remember(file, id, crc32c);
    }

    /** A record of a file that is not ours to remove: serving goes on without it (the next request hashes again). */
    private void recordQuietly(Path file, FileIdentity id, int crc32c) {
        try {
            writeRecord(file, id, crc32c);
        } catch (IOException e) {
            LOG.warning("no checksum record for " + file + ": " + e.getMessage());
        }
    }
}
