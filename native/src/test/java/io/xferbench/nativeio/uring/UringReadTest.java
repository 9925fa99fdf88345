package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** READ and READ_FIXED through the suite's own ring, byte-verified against the file, buffered and O_DIRECT. */
class UringReadTest {
    private static final int BLOCK = 64 * 1024;
    private static final int DEPTH = 4;

    @TempDir
    Path dir;

    @BeforeEach
    void ring() {
        UringTesting.assumeRing();
    }

    @ParameterizedTest(name = "{0} bytes, {1}, fixed buffers {2}, registered file {3}")
    @CsvSource({
        "1, buffered, false, false", "4095, buffered, false, false", "4097, buffered, false, false", "1048589, buffered, false, false",
        "1, buffered, true, true", "4095, buffered, true, false", "4097, buffered, true, true", "1048589, buffered, true, true",
        "1, direct, false, false", "4095, direct, false, true", "4097, direct, false, false", "1048589, direct, false, false",
        "1, direct, true, true", "4095, direct, true, true", "4097, direct, true, false", "1048589, direct, true, true"})
    void readsTheFileExactly(int size, String mode, boolean fixedBuffers, boolean registeredFile) throws Exception {
        if (fixedBuffers) {
            NativeAssumptions.assumeAvailable("registered buffers", UringProbe.here().fixedBuffers() == null,
                    UringProbe.here().fixedBuffers());
        }
        if (registeredFile) {
            NativeAssumptions.assumeAvailable("registered files", UringProbe.here().fixedFiles() == null,
                    UringProbe.here().fixedFiles());
        }
        byte[] content = UringTesting.bytes(size, size);
        Path file = Files.write(dir.resolve("f"), content);
        byte[] read = new byte[size];
        if (mode.equals("direct")) {
            try (DirectIoFile f = DirectIoFile.openRead(file)) {
                readWhole(f.fd(), f.alignment(), size, fixedBuffers, registeredFile, read);
            }
        } else {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                readWhole(Fds.of(channel), 1, size, fixedBuffers, registeredFile, read);
            }
        }
        assertThat(UringTesting.crc32c(read)).isEqualTo(UringTesting.crc32c(content));
        assertThat(read).isEqualTo(content);
    }

    @ParameterizedTest(name = "{0} bytes")
    @CsvSource({"4097", "1048589"})
    void aSingleIssuerDeferTaskrunRingReadsTheFileExactly(int size) throws Exception {
        NativeAssumptions.assumeAvailable("DEFER_TASKRUN", UringProbe.here().deferTaskrun() == null,
                UringProbe.here().deferTaskrun());
        byte[] content = UringTesting.bytes(size, size);
        Path file = Files.write(dir.resolve("f"), content);
        byte[] read = new byte[size];
        try (DirectIoFile f = DirectIoFile.openRead(file)) {
            readWhole(RingOptions.plain(8).withSingleIssuer(true), f.fd(), f.alignment(), size, true, true, read);
        }
        assertThat(read).isEqualTo(content);
    }

    private static void readWhole(int fd, int alignment, int size, boolean fixedBuffers, boolean registeredFile,
            byte[] into) throws Exception {
        readWhole(RingOptions.plain(8), fd, alignment, size, fixedBuffers, registeredFile, into);
    }

    private static void readWhole(RingOptions options, int fd, int alignment, int size, boolean fixedBuffers,
            boolean registeredFile, byte[] into) throws Exception {
        List<ByteBuffer> slots = new ArrayList<>();
        for (int i = 0; i < DEPTH; i++) {
            slots.add(AlignedBuffers.allocate(BLOCK, Math.max(alignment, 4096)));
        }
        int ops = (size + BLOCK - 1) / BLOCK;
        try (IoUring ring = IoUring.open(options)) {
            if (fixedBuffers) {
                ring.registerBuffers(slots);
            }
            RingReads.Source source = RingReads.Source.plain(fd, "f");
            if (registeredFile) {
                ring.registerFiles(fd);
                source = RingReads.Source.registered(0, "f");
            }
            long[] counted = new long[1];
            new RingReads(ring, source, slots, fixedBuffers, 2).run(ops, k -> (long) k * BLOCK, BLOCK, (op, offset, data, nanos) -> {
                assertThat(data.remaining()).isEqualTo((int) Math.min(BLOCK, size - offset));
                counted[0] += data.remaining();
                UringTesting.place(into, 0, offset, data);
            });
            assertThat(counted[0]).isEqualTo(size);
        }
    }
}
