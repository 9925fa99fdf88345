package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Preadv2Test {
    private static final int SIZE = (1 << 20) + 17;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "flags {0}")
    @ValueSource(ints = {0, Preadv2.RWF_DONTCACHE})
    void readsTheBytesAtAnOddOffsetShortAtTheEndAndNothingPastIt(int flags) throws Exception {
        byte[] data = TestData.bytes(SIZE, 3);
        Path file = TestData.file(dir.resolve("f"), SIZE, 3);
        assumeFlagsWork(file, flags);
        try (Fd fd = Fd.open(file)) {
            ByteBuffer dst = ByteBuffer.allocateDirect(100_003);
            dst.position(5);
            assertThat(Preadv2.read(fd.fd, dst, 4095, flags)).isEqualTo(100_003 - 5);
            assertThat(dst.position()).isEqualTo(100_003);
            assertThat(bytes(dst.flip().position(5))).isEqualTo(Arrays.copyOfRange(data, 4095, 4095 + 100_003 - 5));

            assertThat(Preadv2.read(fd.fd, dst.clear(), SIZE - 10, flags)).as("short at the end").isEqualTo(10);
            assertThat(bytes(dst.flip())).isEqualTo(Arrays.copyOfRange(data, SIZE - 10, SIZE));
            assertThat(Preadv2.read(fd.fd, dst.clear(), SIZE, flags)).as("at the end").isZero();
            assertThat(Preadv2.read(fd.fd, dst.clear(), 5L << 32, flags)).as("far past the end").isZero();
        }
    }

    /** Offsets are 64-bit all the way down: a byte written 5 GiB + 3 into a sparse file reads back from there. */
    @ParameterizedTest(name = "flags {0}")
    @ValueSource(ints = {0, Preadv2.RWF_DONTCACHE})
    void readsPastFourGiB(int flags) throws Exception {
        Path file = dir.resolve("sparse");
        long at = (5L << 30) + 3;
        byte[] data = TestData.bytes(4096, 9);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(data), at);
        }
        assumeFlagsWork(file, flags);
        try (Fd fd = Fd.open(file)) {
            ByteBuffer dst = ByteBuffer.allocateDirect(8192);
            assertThat(Preadv2.read(fd.fd, dst, at - 4096, flags)).isEqualTo(8192);
            assertThat(bytes(dst.flip().position(4096))).isEqualTo(data);
        }
    }

    /**
     * The flag's point, in whole pages: a dontcache read of an evicted file leaves none of it in the page cache, where
     * the same read without the flag leaves all of it.
     */
    @Test
    void aDontCacheReadLeavesNoPageBehindWhereABufferedReadLeavesThemAll() throws Exception {
        Path file = TestData.file(dir.resolve("f"), 16 << 20, 5);
        assumeFlagsWork(file, Preadv2.RWF_DONTCACHE);
        long pages = (16 << 20) / AlignedBuffers.pageSize();

        PageCache.evict(file);
        readAll(file, Preadv2.RWF_DONTCACHE);
        assertThat(PageCache.residency(file)).isEqualTo(new PageCache.Residency(0, pages));

        PageCache.evict(file);
        readAll(file, 0);
        assertThat(PageCache.residency(file)).isEqualTo(new PageCache.Residency(pages, pages));

        // Pages already cached are left there: the flag drops only what its own read brought in.
        readAll(file, Preadv2.RWF_DONTCACHE);
        assertThat(PageCache.residency(file)).isEqualTo(new PageCache.Residency(pages, pages));
    }

    @Test
    void failuresAreTypedAndNameTheCall() throws Exception {
        Path file = TestData.file(dir.resolve("f"), 10, 1);
        try (Fd fd = Fd.open(file)) {
            assertThatThrownBy(() -> Preadv2.read(fd.fd, ByteBuffer.allocateDirect(4), -5, 0))
                    .isInstanceOfSatisfying(NativeException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                    .hasMessageContaining("preadv2(fd " + fd.fd + ", 4 bytes at offset -5, no flags): EINVAL");
            assertThatThrownBy(() -> Preadv2.read(fd.fd, ByteBuffer.allocate(4), 0, 0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Preadv2.read(fd.fd, ByteBuffer.allocateDirect(4).asReadOnlyBuffer(), 0, 0))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> Preadv2.read(-1, ByteBuffer.allocateDirect(4), 0, Preadv2.RWF_DONTCACHE))
                .isInstanceOfSatisfying(NativeException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EBADF))
                .hasMessageContaining("RWF_DONTCACHE): EBADF");
    }

    @Test
    void flagNames() {
        assertThat(Preadv2.flagNames(0)).isEqualTo("no flags");
        assertThat(Preadv2.flagNames(0x80)).isEqualTo("RWF_DONTCACHE");
        assertThat(Preadv2.flagNames(0x88)).isEqualTo("RWF_DONTCACHE|0x8");
        assertThat(Preadv2.flagNames(0x40)).isEqualTo("0x40");
    }

    static void assumeFlagsWork(Path file, int flags) throws NativeException {
        if (flags != 0) {
            String reason = DontCacheProbe.unsupportedReason(file);
            NativeAssumptions.assumeAvailable("RWF_DONTCACHE", reason == null, reason);
        }
    }

    private static void readAll(Path file, int flags) throws NativeException {
        try (Fd fd = Fd.open(file)) {
            ByteBuffer dst = ByteBuffer.allocateDirect(1 << 20);
            long at = 0;
            int n;
            while ((n = Preadv2.read(fd.fd, dst.clear(), at, flags)) > 0) {
                at += n;
            }
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** A read-only descriptor, closed after the test's use. */
    record Fd(int fd) implements AutoCloseable {
        static Fd open(Path file) throws NativeException {
            try {
                return new Fd(Libc.open(Libc.path(file), Libc.O_RDONLY | Libc.O_CLOEXEC, 0));
            } catch (com.sun.jna.LastErrorException e) {
                throw NativeException.of("open(" + file + ")", e);
            }
        }

        @Override
        public void close() {
            Libc.close(fd);
        }
    }
}
