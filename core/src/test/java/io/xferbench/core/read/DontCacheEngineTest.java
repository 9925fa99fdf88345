package io.xferbench.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.ContentGenerator;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.PageCache;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The dontcache engine's reads leave an evicted file out of the page cache, where sync-filechannel's (the same reads
 * without the flag) bring every page read into it; both read the right bytes.
 */
class DontCacheEngineTest {
    private static final long SEED = 0x5EEDF11EL;
    private static final long SIZE = 8 << 20;
    private static final int BLOCK = 128 << 10;
    private Path file;

    @BeforeEach
    void write() throws Exception {
        // Under the build directory, as ReadEnginesTest: /tmp may be a tmpfs, which has no RWF_DONTCACHE.
        file = Files.createTempFile(Files.createDirectories(Path.of("target")), "dontcache-engine-", ".bin");
        ByteBuffer all = ByteBuffer.allocate((int) SIZE);
        new ContentGenerator(SEED).fill(all, 0);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            out.write(all.flip());
        }
    }

    @AfterEach
    void delete() throws Exception {
        Files.deleteIfExists(file);
    }

    /** The pollution scenario's read: one reader, sequential to the end of the file, leaves no page of it cached. */
    @org.junit.jupiter.api.Test
    void aSequentialReaderLeavesNoPageWhereABufferedOneLeavesThemAll() throws Exception {
        ReadSpec spec = new ReadSpec(file, SIZE, ReadPattern.SEQUENTIAL, BLOCK, 1, SIZE / BLOCK, 42);
        long pages = SIZE / AlignedBuffers.pageSize();
        assertThat(residentAfter(new DontCacheEngine(), spec)).isEqualTo(new PageCache.Residency(0, pages));
        assertThat(residentAfter(new SyncChannelEngine(), spec)).isEqualTo(new PageCache.Residency(pages, pages));
    }

    /**
     * Readers that stop before the end of the file (a stripe, random blocks) leave what the kernel read ahead past
     * their last read: those pages were never read, so never dropped. How much the kernel reads ahead varies with the
     * machine's load (a quarter of the file once on a loaded 2-core machine), so the bound is half what buffered reads leave.
     */
    @ParameterizedTest
    @EnumSource(ReadPattern.class)
    void threeReadersLeaveOnlyWhatWasReadAheadPastTheirReads(ReadPattern pattern) throws Exception {
        ReadSpec spec = new ReadSpec(file, SIZE, pattern, BLOCK, 3, SIZE / BLOCK, 42);
        long dontcache = residentAfter(new DontCacheEngine(), spec).residentPages();
        long buffered = residentAfter(new SyncChannelEngine(), spec).residentPages();
        assertThat(dontcache).as("dontcache %d pages, sync-filechannel %d", dontcache, buffered).isLessThan(buffered / 2);
    }

    private static PageCache.Residency residentAfter(ReadEngine engine, ReadSpec spec) throws Exception {
        return EvictedReads.residentAfter(engine, spec, SEED);
    }
}
