package io.xferbench.core.data;

import io.xferbench.nativeio.FileIdentity;
import io.xferbench.nativeio.OpenRegularFile;
import io.xferbench.nativeio.Unlink;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * The generated test files ({@link GeneratedNames}), written on demand with deterministic content and opened with the
 * CRC32C of the opened bytes. It owns writing them: one writer per name at a time (a lock taken only to write, so
 * downloads of a file already there with its record never queue), a space check before the first byte, and leaving
 * nothing behind on failure: the data goes to a temporary file renamed into place, then its record is written, and a
 * disk that fills anyway (another writer) at any step removes what that request wrote, the placed file included, but
 * only while the name is still that file. Written with the server's seed, so every machine has the same bytes.
 */
final class GeneratedFiles {
    /** Seed of generated files: fixed, so the same size always has the same bytes on every machine. */
    static final long SEED = 0x5EEDF11EL;
    private static final int CHUNK = 1 << 20;
    private static final Logger LOG = Logger.getLogger(GeneratedFiles.class.getName());

    private final ConfinedNames names;
    private final ChecksumRecords records;
    private final FreeSpace freeSpace;
    /** What a file written here needs beyond its size (see DataDirectory.RECORD_AND_METADATA_ROOM). */
    private final long room;
    /**
     * A generated file's lock, by name. Locks, not monitors: a virtual thread that waited for a monitor is resumed
     * through the JDK's scheduler's external queues, which a busy scheduler can leave unserved (docs/robustness.md).
     */
    private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    GeneratedFiles(ConfinedNames names, ChecksumRecords records, FreeSpace freeSpace, long room) {
        this.names = names;
        this.records = records;
        this.freeSpace = freeSpace;
        this.room = room;
    }

    /**
     * The generated file of {@code size} bytes, opened, with the CRC32C of the opened bytes. Where it is there with its
     * record (every request but the first), no lock is taken: hundreds of connections downloading the same file must
     * not queue on one lock for an open; only writing it is serialized.
     */
    OpenedFile open(long size) throws IOException {
        OpenedFile ready = openIfRecorded(size);
        if (ready != null) {
            return ready;
        }
        String name = GeneratedNames.of(size);
        Path path = names.root().resolve(name);
        ReentrantLock lock = lock(name);
        lock.lock();
        try {
            OpenRegularFile opened;
            try {
                opened = names.openIn(name);
            } catch (NoSuchFileException e) {
                names.checkRootUnmoved();
                return generate(path, size);
            }
            try {
                Integer crc = opened.size() == size ? records.read(path, opened) : null;
                if (crc != null) {
                    return new OpenedFile(path, opened.channel(), size, crc);
                }
            } catch (IOException | RuntimeException e) {
                opened.close();
                throw e;
            }
            // No trustworthy record for what is there: the generated name is ours, so write it anew.
            opened.close();
            names.checkRootUnmoved();
            return generate(path, size);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The generated file {@link #open} would open, when it is there with a matching checksum record; null when it would
     * have to be written (or rewritten) first. Takes no lock: a record never vouches for other bytes, and a file renamed
     * into place before its record is written is just null.
     */
    OpenedFile openIfRecorded(long size) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size);
        }
        String name = GeneratedNames.of(size);
        OpenRegularFile opened;
        try {
            opened = names.openIn(name);
        } catch (NoSuchFileException e) {
            return null;
        }
        return records.ifRecorded(names.root().resolve(name), opened, size);
    }

    /** What serializes writing the generated file {@code name}. */
    ReentrantLock lock(String name) {
        return locks.computeIfAbsent(name, k -> new ReentrantLock());
    }

    private OpenedFile generate(Path path, long size) throws IOException {
        Path root = names.root();
        String label = path.getFileName().toString();
        for (TempFiles.Removed r : TempFiles.removeStale(root, label)) {
            LOG.info(() -> "removed " + r.path() + " (" + r.bytes() + " bytes), left by a killed run while it made " + label);
        }
        // After the sweep above, which may have given space back.
        freeSpace.require(root, "the generated file", size, room);
        Path tmp = TempFiles.next(root, label);
        try {
            tmp.toFile().deleteOnExit(); // Ctrl-C and SIGTERM in the middle; gone already once renamed into place
        } catch (IllegalStateException shuttingDown) {
            // A generation asked for during the shutdown grace: a failed one is still removed below.
        }
        FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        boolean placed = false;
        try {
            int crc = writeContent(out, size);
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            placed = true;
            // After the rename, which sets the ctime the record is keyed by.
            records.write(path, FileIdentity.of(out), crc);
            return new OpenedFile(path, out, size, crc);
        } catch (IOException | RuntimeException e) {
            try {
                if (placed) {
                    removeIfStill(label, out);
                } else {
                    Files.deleteIfExists(tmp);
                }
            } finally {
                out.close();
            }
            throw e;
        }
    }

    /** Writes the {@code size} generated bytes to {@code out}; their CRC32C. */
    private static int writeContent(FileChannel out, long size) throws IOException {
        ContentGenerator generator = new ContentGenerator(SEED);
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
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
        return (int) crc.getValue();
    }

    /** Unlinks the generated file {@code name} if it still is the file open as {@code ours} (another server may have replaced it). */
    private void removeIfStill(String name, FileChannel ours) throws IOException {
        if (stillOurs(name, ours)) {
            unlinkPlaced(name);
        }
    }

    /** Whether the entry {@code name} of the held directory is the file open as {@code ours}. */
    boolean stillOurs(String name, FileChannel ours) throws IOException {
        try (OpenRegularFile now = names.openIn(name)) {
            return now.identity().sameInode(FileIdentity.of(ours));
        } catch (NoSuchFileException | AccessDeniedException gone) {
            return false;
        }
    }

    /**
     * Removes the entry {@code name} of the held directory by one unlinkat(2), which the kernel refuses for a directory
     * ({@link Unlink}). Files.deleteIfExists lstat()ed, then removed by what it saw, so a file swapped for an empty
     * directory since {@link #stillOurs} lost the directory; and it went by the path.
     */
    void unlinkPlaced(String name) throws IOException {
        try {
            Unlink.entry(names.directoryFd(), name, name);
        } catch (NoSuchFileException | Unlink.DirectoryException notOurs) {
            // Gone, or a directory now: not the generation's to remove.
        }
    }
}
