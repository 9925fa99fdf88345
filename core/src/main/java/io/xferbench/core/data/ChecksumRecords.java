package io.xferbench.core.data;

import io.xferbench.nativeio.FileIdentity;
import io.xferbench.nativeio.HeldDirectory;
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
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * Every served file's CRC32C, kept so that no request re-hashes a file and no record describes another file. It owns
 * the records: in memory ({@link ChecksumRecordCache}) and in hidden files beside the files ({@link ChecksumRecordName},
 * {@link ChecksumRecordLine}), each keyed by the identity of the bytes it was computed from ({@link FileIdentity}:
 * device, inode and its generation, size, mtime, ctime, read from the open descriptor): an upload renamed over the name
 * is another inode, and even a reused inode number has a new generation and ctime. It also owns hashing a file that has
 * no record: only after its dirty pages are written back ({@link WriteBack}), between the statx its record is keyed by
 * and the one that must still match after the hash, because a page left dirty and writable in a shared mapping takes
 * further stores without any of those fields moving, while a written-back page faults on the next store, which moves
 * the mtime and ctime. Record files are read and written in directories reached from the held data directory
 * ({@link ConfinedNames}), never by a path a symlink could redirect.
 */
final class ChecksumRecords implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ChecksumRecords.class.getName());
    private static final int CHUNK = 1 << 20;
    /** A file that keeps changing while it is hashed is refused after this many tries. */
    private static final int HASH_TRIES = 3;
    /** Releases the cache's pinned descriptors of a data directory nobody holds any more. */
    private static final Cleaner CLEANER = Cleaner.create();

    private final ConfinedNames names;
    /** Records already read or written, matched against each opened descriptor exactly like the record on disk. */
    private final ChecksumRecordCache known = new ChecksumRecordCache();
    private final Cleaner.Cleanable released;

    ChecksumRecords(ConfinedNames names) {
        this.names = names;
        ChecksumRecordCache cache = known;
        this.released = CLEANER.register(this, cache::clear);
    }

    /** Releases the pinned inodes now rather than when this is collected. */
    @Override
    public void close() {
        released.clean();
    }

    /**
     * {@code opened} (the file {@code name} asked for, whose record lives beside {@code path}) with the CRC32C of the
     * opened bytes: from its record, or hashed now (written back first) and recorded. Closes {@code opened} on failure.
     *
     * @throws IOException also when the file kept changing while it was hashed
     */
    OpenedFile checksummed(Path path, OpenRegularFile opened, String name) throws IOException {
        try {
            Integer crc = read(path, opened);
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
                        writeQuietly(path, id, crc);
                    }
                    return new OpenedFile(path, channel, id.size(), crc);
                }
                if (attempt == HASH_TRIES) {
                    throw new IOException(name + " kept changing while it was hashed (" + HASH_TRIES + " tries)");
                }
                // Changed while hashed: another server may have recorded what it is now.
                id = after;
                crc = read(path, id);
                if (crc != null) {
                    return new OpenedFile(path, channel, id.size(), crc);
                }
            }
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    /** {@code opened} with its recorded CRC32C, or null (and closed) without a record for it of {@code size} (-1: any). */
    OpenedFile ifRecorded(Path path, OpenRegularFile opened, long size) throws IOException {
        try {
            Integer crc = size < 0 || opened.size() == size ? read(path, opened) : null;
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

    /** {@code opened} with its CRC32C when remembered, of {@code size} bytes (-1: any); else null, {@code opened} closed. */
    OpenedFile ifRemembered(Path path, OpenRegularFile opened, long size) throws IOException {
        Integer crc = size < 0 || opened.size() == size ? known.lookup(path, opened) : null;
        if (crc == null) {
            opened.close();
            return null;
        }
        return new OpenedFile(path, opened.channel(), opened.size(), crc);
    }

    /** The recorded CRC32C of the bytes open as {@code opened}, from memory or from the record file; or null. */
    Integer read(Path file, OpenRegularFile opened) throws IOException {
        Integer crc = known.lookup(file, opened);
        if (crc != null) {
            return crc;
        }
        names.checkRootUnmoved();
        crc = readFile(file, opened.identity());
        if (crc != null) {
            known.remember(file, opened, crc);
        }
        return crc;
    }

    /** The recorded CRC32C of the bytes with identity {@code id}, from memory or from the record file; or null. */
    private Integer read(Path file, FileIdentity id) throws IOException {
        Integer crc = known.lookup(file, id);
        if (crc != null) {
            return crc;
        }
        crc = readFile(file, id);
        if (crc != null) {
            known.remember(file, id, crc);
        }
        return crc;
    }

    private static Integer readFile(Path file, FileIdentity id) throws IOException {
        try {
            return ChecksumRecordLine.crc32cOf(Files.readString(ChecksumRecordName.of(file), StandardCharsets.US_ASCII), id);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * Records the CRC32C of a file just renamed to {@code target}, from {@code placed}, the descriptor its verified
     * bytes were written through (the identity is read now, after the rename that set the ctime). Small files are
     * remembered in memory only; larger ones get a record file, in {@code held} when that is the target's directory
     * (null: reached from the held data directory). Best effort: without a record the first download hashes the file.
     *
     * @param verifiedSize the byte count that was verified: a descriptor that shows another size now is not recorded
     */
    void recordPlaced(Path target, FileChannel placed, long verifiedSize, int crc32c, HeldDirectory held) {
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
                writeIn(held, target, file.identity(), crc32c);
            } else {
                writeQuietly(target, file.identity(), crc32c);
            }
        } catch (IOException e) {
            LOG.warning("no checksum record for " + target + ": " + e.getMessage());
        }
    }

    /**
     * Atomically replaces the record of {@code file} (a path inside the directory); on failure nothing of it stays
     * behind. Its temp file is created and renamed in the file's directory reached from the held one through directories
     * not followed ({@link HeldDirectory}): by path, a directory swapped for a symlink leading out had the record written
     * out there.
     */
    void write(Path file, FileIdentity id, int crc32c) throws IOException {
        try (HeldDirectory dir = HeldDirectory.beneath(names.directoryFd(), names.directoriesOf(file.getParent()), names.shown(file))) {
            writeIn(dir, file, id, crc32c);
        }
    }

    /** {@link #write} into {@code dir}, {@code file}'s directory, held. */
    private void writeIn(HeldDirectory dir, Path file, FileIdentity id, int crc32c) throws IOException {
        byte[] line = ChecksumRecordLine.encode(id, crc32c);
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
    private void writeQuietly(Path file, FileIdentity id, int crc32c) {
        try {
            write(file, id, crc32c);
        } catch (IOException e) {
            LOG.warning("no checksum record for " + file + ": " + e.getMessage());
        }
    }

    /** Forgets the remembered record of {@code file}, releasing its pinned inode. */
    void forget(Path file) {
        known.forget(file);
    }

    /** Removes {@code file}'s record file if there is one; a directory of its name is not the server's and stays. */
    void unlink(List<String> directories, Path file) throws IOException {
        try (HeldDirectory dir = HeldDirectory.beneath(names.directoryFd(), directories, file.getFileName().toString())) {
            unlink(dir.fd(), file);
        }
    }

    /** {@code file}'s record file removed from {@code dirfd}, its directory, if there is one (not a directory). */
    static void unlink(int dirfd, Path file) throws IOException {
        String record = ChecksumRecordName.of(file.getFileName().toString());
        try {
            Unlink.entry(dirfd, record, record);
        } catch (NoSuchFileException | Unlink.DirectoryException e) {
            // None, or not a record.
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
}
