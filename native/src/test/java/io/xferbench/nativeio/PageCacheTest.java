package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageCacheTest {
    private static final int SIZE = 16 << 20;

    @TempDir
    Path dir;

    @Test
    void evictDropsTheFileBufferedReadLoadsItDirectReadLeavesItOut() throws Exception {
        Path file = TestData.file(dir.resolve("f"), SIZE, 42);
        long pages = SIZE / AlignedBuffers.pageSize();

        PageCache.evict(file);
        PageCache.Residency evicted = PageCache.residency(file);
        assertThat(evicted.totalPages()).isEqualTo(pages);
        assertThat(evicted.fraction()).as("after evict: %s", evicted).isLessThanOrEqualTo(0.05);

        assertThat(Files.readAllBytes(file)).hasSize(SIZE);
        PageCache.Residency read = PageCache.residency(file);
        assertThat(read.fraction()).as("after a buffered read: %s", read).isGreaterThanOrEqualTo(0.95);

        PageCache.evict(file);
        try (DirectIoFile f = DirectIoFileTest.openOrSkip(() -> DirectIoFile.openRead(file))) {
            ByteBuffer buffer = AlignedBuffers.allocate(1 << 20, f.alignment());
            long offset = 0;
            int n;
            do {
                n = f.pread(buffer.clear(), offset);
                offset += n;
            } while (n == buffer.capacity());
            assertThat(offset).isEqualTo(SIZE);
        }
        PageCache.Residency direct = PageCache.residency(file);
        assertThat(direct.fraction()).as("after an O_DIRECT read of the evicted file: %s", direct)
                .isLessThanOrEqualTo(0.05);
    }

    @Test
    void warmLoadsAnEvictedFile() throws Exception {
        Path file = TestData.file(dir.resolve("f"), SIZE / 2 + 1, 9);
        PageCache.evict(file);
        assertThat(PageCache.residency(file).permille()).isLessThanOrEqualTo(50);
        PageCache.warm(file);
        PageCache.Residency warm = PageCache.residency(file);
        assertThat(warm.totalPages()).isEqualTo((SIZE / 2 + 1 + AlignedBuffers.pageSize() - 1) / AlignedBuffers.pageSize());
        assertThat(warm.permille()).as("after warm: %s", warm).isGreaterThanOrEqualTo(950);
    }

    @Test
    void filesBeyondTwoGibAreMeasuredInWindows() throws Exception {
        // Sparse: 3 GiB of address space but only one written page, 2.5 GiB in (the third 1 GiB window).
        Path file = dir.resolve("sparse");
        long size = 3L << 30;
        long page = AlignedBuffers.pageSize();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(TestData.bytes((int) page, 1)), 5L << 29);
            ch.truncate(size);
            ch.write(ByteBuffer.wrap(new byte[1]), size - 1);
        }
        PageCache.Residency dirty = PageCache.residency(file);
        assertThat(dirty.totalPages()).isEqualTo(size / page);
        assertThat(dirty.residentPages()).as("%s", dirty).isBetween(2L, 16L);
        PageCache.evict(file);
        assertThat(PageCache.residency(file).residentPages()).isZero();
    }

    @Test
    void emptyFileHasNoPagesAndCountsAsResident() throws Exception {
        PageCache.Residency empty = PageCache.residency(Files.createFile(dir.resolve("empty")));
        assertThat(empty).isEqualTo(new PageCache.Residency(0, 0));
        assertThat(empty.fraction()).isEqualTo(1.0);
        assertThat(empty.permille()).isEqualTo(1000);
    }

    @Test
    void residencyArithmetic() {
        assertThat(new PageCache.Residency(1, 3).fraction()).isEqualTo(1.0 / 3);
        assertThat(new PageCache.Residency(1, 3).permille()).isEqualTo(333);
        assertThat(new PageCache.Residency(3, 3).permille()).isEqualTo(1000);
    }

    @Test
    void missingFileGivesEnoent() {
        assertThatThrownBy(() -> PageCache.residency(dir.resolve("missing")))
                .isInstanceOf(NativeException.class).hasMessageContaining("ENOENT");
        assertThatThrownBy(() -> PageCache.evict(dir.resolve("missing")))
                .isInstanceOf(NativeException.class).hasMessageContaining("ENOENT");
        assertThatThrownBy(() -> PageCache.syncFileSystem(dir.resolve("missing")))
                .isInstanceOf(NativeException.class).hasMessageContaining("ENOENT");
    }

    /** syncfs(2) through a directory or a file of the file system; the upload twin calls it between receives. */
    @Test
    void syncFileSystemTakesADirectoryOrAFile() throws Exception {
        Path file = dir.resolve("dirty.bin");
        Files.write(file, new byte[1 << 20]);
        PageCache.syncFileSystem(dir);
        PageCache.syncFileSystem(file);
    }
}
