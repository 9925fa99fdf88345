package io.xferbench.core.data;

import io.xferbench.nativeio.FileIdentity;
import io.xferbench.nativeio.InodePin;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.OpenRegularFile;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Checksum records already read or written, by file, in memory: a hit saves the open/read/close of the record
 * file, and never vouches for other bytes than the record's, because the opened descriptor must show the record's
 * identity.
 *
 * <p>Comparing a full {@link FileIdentity} costs an ioctl per request (the inode generation, which tells a reused
 * inode number from the recorded inode). Small files' entries therefore hold an {@link InodePin} on the recorded
 * inode: while it is held that inode cannot be freed, so no other file can have its device and number, and a
 * descriptor showing them is the recorded inode; then equal size, mtime and ctime (the ctime moves with every
 * write, through a shared mapping too since the file was written back before it was hashed, and no user can set it)
 * say its bytes are the recorded bytes, from the one statx taken at open. Without a
 * pin (large files, more than {@link #MAX_PINNED} entries, a record just written by the generator) the generation
 * is compared. Skipping it on a bare (dev, ino, size, mtime, ctime) match would not be safe: timestamps come from
 * a coarse clock, so a file written, recorded, deleted and replaced by one of the same size within one clock tick
 * may get the freed inode number and the very same times.
 */
final class ChecksumRecordCache {
    /** Beyond this many files the cache starts over (a data directory of millions of files still works). */
    private static final int MAX_KNOWN = 100_000;
    /** Descriptors held at most: the cost is one descriptor each, and the blocks of pinned files deleted meanwhile. */
    static final int MAX_PINNED = 256;
    /** Larger files are not pinned: a request for them is long next to an ioctl, and a deleted one would hold more disk. */
    static final long PIN_MAX_BYTES = 1 << 20;

    private record Entry(FileIdentity identity, int crc32c, InodePin pin) {
        void release() {
            if (pin != null) {
                pin.close();
            }
        }
    }

    private final ConcurrentHashMap<Path, Entry> known = new ConcurrentHashMap<>();
    private final AtomicInteger pinned = new AtomicInteger();

    /**
     * The CRC32C recorded for exactly the bytes open as {@code opened} (read through {@code file}), or null. A hit
     * on an entry without a pin pins it now when the file is small enough.
     */
    Integer lookup(Path file, OpenRegularFile opened) {
        Entry e = known.get(file);
        if (e == null) {
            return null;
        }
        // The pin is checked after the statx (taken at open) and while `opened` is still open: both inodes were
        // alive together, so equal device and number mean one inode.
        if (e.pin() != null && opened.matchesExceptGeneration(e.identity()) && e.pin().held()) {
            return e.crc32c();
        }
        if (!e.identity().equals(opened.identity())) {
            return null;
        }
        if (e.pin() == null) {
            Entry pinnedEntry = withPin(e.identity(), e.crc32c(), opened);
            if (pinnedEntry.pin() != null && !known.replace(file, e, pinnedEntry)) {
                release(pinnedEntry);
            }
        }
        return e.crc32c();
    }

    /** The CRC32C recorded for exactly the identity {@code id}, or null. */
    Integer lookup(Path file, FileIdentity id) {
        Entry e = known.get(file);
        return e != null && e.identity().equals(id) ? e.crc32c() : null;
    }

    /** Remembers {@code crc32c} for the identity of {@code opened} as it was opened, pinning the inode if small. */
    void remember(Path file, OpenRegularFile opened, int crc32c) {
        put(file, withPin(opened.identity(), crc32c, opened));
    }

    /** Remembers {@code crc32c} for {@code identity}, without a pin (the next hit through a descriptor adds one). */
    void remember(Path file, FileIdentity identity, int crc32c) {
        put(file, new Entry(identity, crc32c, null));
    }

    void forget(Path file) {
        Entry old = known.remove(file);
        if (old != null) {
            release(old);
        }
    }

    /** Drops every entry and releases every pin. */
    void clear() {
        for (Path file : known.keySet()) {
            forget(file);
        }
    }

    /** Inodes held now. */
    int pinned() {
        return pinned.get();
    }

    private void put(Path file, Entry entry) {
        if (known.size() >= MAX_KNOWN) {
            clear();
        }
        Entry old = known.put(file, entry);
        if (old != null) {
            release(old);
        }
    }

    private Entry withPin(FileIdentity identity, int crc32c, OpenRegularFile opened) {
        if (identity.size() > PIN_MAX_BYTES || !identity.equals(opened.identity())) {
            return new Entry(identity, crc32c, null);
        }
        if (pinned.incrementAndGet() > MAX_PINNED) {
            pinned.decrementAndGet();
            return new Entry(identity, crc32c, null);
        }
        try {
            return new Entry(identity, crc32c, opened.pin());
        } catch (NativeException e) {
            // Out of descriptors, say: the entry works without a pin, at an ioctl per hit.
            pinned.decrementAndGet();
            return new Entry(identity, crc32c, null);
        }
    }

    private void release(Entry e) {
        if (e.pin() != null) {
            e.release();
            pinned.decrementAndGet();
        }
    }
}
