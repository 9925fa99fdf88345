package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.testing.NativeAssumptions;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DirectIoFileTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 1, 4095, 4096, 4097, (1 << 20) + 1})
    void directReadEqualsBufferedRead(int size) throws Exception {
        Path file = TestData.file(dir.resolve("f"), size, size);
        try (DirectIoFile f = openReadOrSkip(file)) {
            assertThat(f.size()).isEqualTo(size);
            ByteBuffer buffer = AlignedBuffers.allocate(64 * 1024, f.alignment());
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            long offset = 0;
            int n;
            // A short count means end of file; the next offset would not be aligned anyway.
            do {
                n = f.pread(buffer.clear(), offset);
                assertThat(buffer.position()).isEqualTo(n);
                read.write(bytesOf(buffer.flip()));
                offset += n;
            } while (n == buffer.capacity());
            assertThat(read.toByteArray()).isEqualTo(Files.readAllBytes(file));
        }
    }

    @Test
    void alignedReadOverTheLastPartialBlockReturnsTheShortCount() throws Exception {
        Path file = TestData.file(dir.resolve("f"), 3 * 4096 + 100, 7);
        try (DirectIoFile f = openReadOrSkip(file)) {
            int block = f.alignment();
            long lastBlock = (f.size() / block) * block;
            ByteBuffer buffer = AlignedBuffers.allocate(2 * block, f.alignment());
            int n = f.pread(buffer, lastBlock);
            assertThat(n).isEqualTo((int) (f.size() - lastBlock));
            byte[] expected = Files.readAllBytes(file);
            assertThat(bytesOf(buffer.flip())).isEqualTo(java.util.Arrays.copyOfRange(expected, (int) lastBlock, expected.length));
            assertThat(f.pread(buffer.clear(), lastBlock + block)).as("at/after EOF").isZero();
        }
    }

    @Test
    void directWriteOfPaddedBlocksThenTruncateGivesTheExactFile() throws Exception {
        Path file = dir.resolve("w");
        byte[] data = TestData.bytes(3 * 4096 + 123, 11);
        try (DirectIoFile f = openWriteOrSkip(file)) {
            int block = f.alignment();
            int padded = (data.length + block - 1) / block * block;
            ByteBuffer buffer = AlignedBuffers.allocate(padded, f.alignment());
            buffer.put(data).position(0);
            assertThat(f.pwrite(buffer, 0)).isEqualTo(padded);
            assertThat(buffer.hasRemaining()).isFalse();
            assertThat(f.size()).isEqualTo(padded);
            f.truncate(data.length);
            f.sync();
            assertThat(f.size()).isEqualTo(data.length);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(data);
    }

    @Test
    void openWriteWithoutCreateKeepsTheContents() throws Exception {
        byte[] data = TestData.bytes(8192, 3);
        Path file = Files.write(dir.resolve("keep"), data);
        try (DirectIoFile f = openOrSkip(() -> DirectIoFile.openWrite(file, false))) {
            assertThat(f.size()).isEqualTo(data.length);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(data);
        assertThatThrownBy(() -> DirectIoFile.openWrite(dir.resolve("absent"), false))
                .isInstanceOf(NativeException.class).hasMessageContaining("ENOENT");
    }

    @Test
    void alignmentIsAPowerOfTwoWithItsSourceNamed() throws Exception {
        try (DirectIoFile f = openReadOrSkip(TestData.file(dir.resolve("f"), 1, 1))) {
            assertThat(Integer.bitCount(f.memoryAlignment())).isOne();
            assertThat(Integer.bitCount(f.offsetAlignment())).isOne();
            assertThat(f.alignment()).isEqualTo(Math.max(f.memoryAlignment(), f.offsetAlignment()));
            assertThat(f.alignmentSource()).matches("statx STATX_DIOALIGN|fallback: .+");
        }
    }

    @Test
    void misalignedBufferAddressIsNamed() throws Exception {
        try (DirectIoFile f = openReadOrSkip(TestData.file(dir.resolve("f"), 8192, 1))) {
            NativeAssumptions.assumeAvailable("a misaligned buffer address", f.memoryAlignment() > 1,
                    "memory alignment is 1 byte: no address is misaligned");
            ByteBuffer skewed = AlignedBuffers.misaligned(4096 * 2, AlignedBuffers.pageSize(), f.memoryAlignment() / 2);
            assertThatThrownBy(() -> f.pread(skewed, 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("buffer address")
                    .hasMessageContaining("memory alignment " + f.memoryAlignment())
                    .hasMessageNotContaining("file offset")
                    .hasMessageNotContaining("length");
            assertThat(skewed.position()).isZero();
        }
    }

    @Test
    void misalignedOffsetAndLengthAreNamed() throws Exception {
        try (DirectIoFile f = openReadOrSkip(TestData.file(dir.resolve("f"), 8192, 1))) {
            NativeAssumptions.assumeAvailable("a misaligned offset", f.offsetAlignment() > 1,
                    "offset alignment is 1 byte: nothing is misaligned");
            ByteBuffer buffer = AlignedBuffers.allocate(4096, f.alignment());
            assertThatThrownBy(() -> f.pread(buffer, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("file offset 1 is misaligned")
                    .hasMessageContaining("offset alignment " + f.offsetAlignment())
                    .hasMessageNotContaining("buffer address");
            assertThatThrownBy(() -> f.pread(buffer.limit(f.offsetAlignment() + 1), 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("length " + (f.offsetAlignment() + 1) + " is not a multiple");
            assertThatThrownBy(() -> f.pread(buffer.clear(), -4096))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("file offset -4096 is negative");
        }
    }

    @Test
    void heapAndReadOnlyBuffersAreRefused() throws Exception {
        try (DirectIoFile f = openReadOrSkip(TestData.file(dir.resolve("f"), 8192, 1))) {
            assertThatThrownBy(() -> f.pread(ByteBuffer.allocate(4096), 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("heap buffer");
            assertThatThrownBy(() -> f.pread(AlignedBuffers.allocate(4096, 4096).asReadOnlyBuffer(), 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("read-only");
        }
    }

    @Test
    void writingThroughAReadOnlyFdGivesEbadf() throws Exception {
        try (DirectIoFile f = openReadOrSkip(TestData.file(dir.resolve("f"), 8192, 1))) {
            assertThatThrownBy(() -> f.pwrite(AlignedBuffers.allocate(4096, 4096), 0))
                    .isInstanceOf(NativeException.class)
                    .hasMessageContaining("pwrite")
                    .hasMessageContaining("EBADF")
                    .hasMessageContaining("Bad file descriptor");
        }
    }

    @Test
    void missingFileGivesEnoent() {
        assertThatThrownBy(() -> DirectIoFile.openRead(dir.resolve("missing")))
                .isInstanceOf(NativeException.class)
                .hasMessageContaining("missing")
                .hasMessageContaining("ENOENT")
                .hasMessageContaining("No such file or directory")
                .extracting(e -> ((NativeException) e).errno()).isEqualTo(Errno.ENOENT);
    }

    @Test
    void procfsRefusalNamesTheFileSystemAndErrno() {
        // procfs has never supported O_DIRECT, so this refusal needs no mount privileges.
        assertThatThrownBy(() -> DirectIoFile.openRead(Path.of("/proc/version")))
                .isInstanceOf(NativeException.class)
                .hasMessageContaining("/proc/version")
                .hasMessageContaining("EINVAL")
                .hasMessageContaining("file system proc ")
                .hasMessageContaining("refuses O_DIRECT");
    }

    @Test
    void closedFileRefusesUse() throws Exception {
        DirectIoFile f = openReadOrSkip(TestData.file(dir.resolve("f"), 4096, 1));
        f.close();
        f.close();
        assertThatThrownBy(() -> f.pread(AlignedBuffers.allocate(4096, 4096), 0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    private static byte[] bytesOf(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    interface Opener {
        DirectIoFile open() throws NativeException;
    }

    /** Skips (with the reason) when @TempDir's file system refuses O_DIRECT; /tmp on ext4 accepts it. */
    static DirectIoFile openOrSkip(Opener opener) throws NativeException {
        try {
            return opener.open();
        } catch (NativeException e) {
            NativeAssumptions.assumeAvailable("O_DIRECT", !e.getMessage().contains("refuses O_DIRECT"), e.getMessage());
            throw e;
        }
    }

    private static DirectIoFile openReadOrSkip(Path file) throws NativeException {
        return openOrSkip(() -> DirectIoFile.openRead(file));
    }

    private DirectIoFile openWriteOrSkip(Path file) throws NativeException {
        return openOrSkip(() -> DirectIoFile.openWrite(file, true));
    }
}
