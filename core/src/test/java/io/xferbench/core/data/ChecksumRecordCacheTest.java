package io.xferbench.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.FileIdentity;
import io.xferbench.nativeio.OpenRegularFile;
import io.xferbench.nativeio.RegularFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cached record vouches only for the inode it was computed from, with or without a pin on that inode. */
class ChecksumRecordCacheTest {
    @TempDir
    Path dir;

    private Path write(String name, long seed) throws Exception {
        byte[] b = new byte[50 * 1024];
        new Random(seed).nextBytes(b);
        return Files.write(dir.resolve(name), b);
    }

    /** The identity of {@code id} with another generation: what a reused inode number with copied times would show. */
    private static FileIdentity otherGeneration(FileIdentity id) {
        return new FileIdentity(id.devMajor(), id.devMinor(), id.inode(), id.generation() + 1, id.size(), id.mtimeNanos(),
                id.ctimeNanos());
    }

    /**
     * An unpinned entry equal in device, inode, size, mtime and ctime but not in generation stands for an inode number
     * reused within one clock tick: it must miss. A cache that compared everything but the generation would hit.
     */
    @Test
    void anUnpinnedEntryDiffersByGenerationAloneIsAMiss() throws Exception {
        Path f = write("f.bin", 1);
        ChecksumRecordCache cache = new ChecksumRecordCache();
        try (OpenRegularFile opened = RegularFiles.open(f)) {
            cache.remember(f, otherGeneration(opened.identity()), 42);
        }
        try (OpenRegularFile opened = RegularFiles.open(f)) {
            assertThat(opened.matchesExceptGeneration(otherGeneration(opened.identity()))).isTrue();
            assertThat(cache.lookup(f, opened)).isNull();
        }
        assertThat(cache.pinned()).isZero();
    }

    @Test
    void aHitThroughADescriptorPinsTheInodeAndKeepsHitting() throws Exception {
        Path f = write("f.bin", 1);
        ChecksumRecordCache cache = new ChecksumRecordCache();
        try (OpenRegularFile opened = RegularFiles.open(f)) {
            cache.remember(f, opened.identity(), 42);
        }
        assertThat(cache.pinned()).isZero();
        for (int i = 0; i < 3; i++) {
            try (OpenRegularFile opened = RegularFiles.open(f)) {
                assertThat(cache.lookup(f, opened)).isEqualTo(42);
            }
            assertThat(cache.pinned()).isEqualTo(1);
        }
        cache.forget(f);
        assertThat(cache.pinned()).isZero();
    }

    /**
     * A pinned entry, then the file replaced by another of the same size with the old mtime copied: the pinned inode
     * cannot be reused, so the new file has another number and the entry misses.
     */
    @Test
    void aPinnedEntryMissesAFileRenamedOverTheNameWithTheSameSizeAndMtime() throws Exception {
        Path f = write("f.bin", 1);
        ChecksumRecordCache cache = new ChecksumRecordCache();
        try (OpenRegularFile opened = RegularFiles.open(f)) {
            cache.remember(f, opened, 42);
        }
        assertThat(cache.pinned()).isEqualTo(1);
        FileTime mtime = Files.getLastModifiedTime(f);
        Path staged = write("staged.bin", 2);
        Files.setLastModifiedTime(staged, mtime);
        Files.move(staged, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (OpenRegularFile opened = RegularFiles.open(f)) {
            assertThat(cache.lookup(f, opened)).isNull();
        }
        cache.clear();
        assertThat(cache.pinned()).isZero();
    }

    @Test
    void largeFilesAreNotPinned() throws Exception {
        Path f = Files.write(dir.resolve("big.bin"), new byte[(int) ChecksumRecordCache.PIN_MAX_BYTES + 1]);
        ChecksumRecordCache cache = new ChecksumRecordCache();
        try (OpenRegularFile opened = RegularFiles.open(f)) {
            cache.remember(f, opened, 7);
            assertThat(cache.lookup(f, opened)).isEqualTo(7);
        }
        assertThat(cache.pinned()).isZero();
    }

    @Test
    void noMoreThanMaxPinnedInodesAreHeld() throws Exception {
        ChecksumRecordCache cache = new ChecksumRecordCache();
        for (int i = 0; i < ChecksumRecordCache.MAX_PINNED + 5; i++) {
            Path f = Files.write(dir.resolve("f" + i), new byte[] {(byte) i});
            try (OpenRegularFile opened = RegularFiles.open(f)) {
                cache.remember(f, opened, i);
            }
        }
        assertThat(cache.pinned()).isEqualTo(ChecksumRecordCache.MAX_PINNED);
        cache.clear();
        assertThat(cache.pinned()).isZero();
    }
}
