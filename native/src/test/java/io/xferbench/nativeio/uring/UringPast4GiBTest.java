package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;
import io.xferbench.nativeio.Fds;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The SQE's 64-bit offset: a pattern written past 4 GiB in a sparse file reads back from there, not from offset mod 2^32. */
class UringPast4GiBTest {
    /** 5 GiB + 4 KiB: aligned for O_DIRECT, and its low 32 bits (1 GiB + 4 KiB) fall in the file's hole. */
    private static final long AT = (5L << 30) + 4096;
    private static final int LENGTH = 3 * 4096 + 17;
    private static final int BLOCK = 8192;

    @TempDir
    Path dir;

    @BeforeEach
    void ring() {
        UringTesting.assumeRing();
    }

    @ParameterizedTest(name = "{0}, fixed buffers {1}")
    @CsvSource({"buffered, false", "buffered, true", "direct, false", "direct, true"})
    void readsThePatternPast4GiB(String mode, boolean fixedBuffers) throws Exception {
        byte[] pattern = UringTesting.bytes(LENGTH, 4);
        Path file = dir.resolve("sparse");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(pattern), AT);
        }
        byte[] read = new byte[LENGTH];
        if (mode.equals("direct")) {
            try (DirectIoFile f = DirectIoFile.openRead(file)) {
                read(f.fd(), f.alignment(), fixedBuffers, read);
            }
        } else {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                read(Fds.of(channel), 4096, fixedBuffers, read);
            }
        }
        assertThat(UringTesting.crc32c(read)).isEqualTo(UringTesting.crc32c(pattern));
        assertThat(read).isEqualTo(pattern);
    }

    private static void read(int fd, int alignment, boolean fixedBuffers, byte[] into) throws Exception {
        List<ByteBuffer> slots = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            slots.add(AlignedBuffers.allocate(BLOCK, alignment));
        }
        try (IoUring ring = IoUring.open(RingOptions.plain(4))) {
            if (fixedBuffers) {
                ring.registerBuffers(slots);
            }
            int ops = (LENGTH + BLOCK - 1) / BLOCK;
            new RingReads(ring, RingReads.Source.plain(fd, "sparse"), slots, fixedBuffers, 1)
                    .run(ops, k -> AT + (long) k * BLOCK, BLOCK, (op, offset, data, nanos) -> {
                        assertThat(data.remaining()).isEqualTo((int) Math.min(BLOCK, AT + LENGTH - offset));
                        UringTesting.place(into, AT, offset, data);
                    });
        }
    }
}
