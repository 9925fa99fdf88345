package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** WRITE and WRITE_FIXED land their bytes at their offsets, past 4 GiB included. */
class UringWriteTest {
    private static final int LENGTH = 4097;

    @TempDir
    Path dir;

    @BeforeEach
    void ring() {
        UringTesting.assumeRing();
    }

    @ParameterizedTest(name = "fixed buffer {0}")
    @ValueSource(booleans = {false, true})
    void writesLandAtTheirOffsets(boolean fixed) throws Exception {
        if (fixed) {
            NativeAssumptions.assumeAvailable("registered buffers", UringProbe.here().fixedBuffers() == null,
                    UringProbe.here().fixedBuffers());
        }
        byte[] first = UringTesting.bytes(LENGTH, 5);
        byte[] far = UringTesting.bytes(LENGTH, 6);
        long farOffset = (4L << 30) + 7;
        ByteBuffer a = AlignedBuffers.allocate(LENGTH, 4096).put(first).clear();
        ByteBuffer b = AlignedBuffers.allocate(LENGTH, 4096).put(far).clear();
        Path file = dir.resolve("w");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                IoUring ring = IoUring.open(RingOptions.plain(4))) {
            int fd = Fds.of(channel);
            if (fixed) {
                ring.registerBuffers(List.of(a, b));
                ring.sq().writeFixed(fd, AlignedBuffers.address(a), LENGTH, 3, 0, 1);
                ring.sq().writeFixed(fd, AlignedBuffers.address(b), LENGTH, farOffset, 1, 2);
            } else {
                ring.sq().write(fd, AlignedBuffers.address(a), LENGTH, 3, 1);
                ring.sq().write(fd, AlignedBuffers.address(b), LENGTH, farOffset, 2);
            }
            ring.submitAndWait(2);
            int[] results = new int[3];
            assertThat(ring.cq().reap((userData, result, flags) -> results[(int) userData] = result)).isEqualTo(2);
            assertThat(results).containsExactly(0, LENGTH, LENGTH);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThat(channel.size()).isEqualTo(farOffset + LENGTH);
            assertThat(readAt(channel, 3)).isEqualTo(first);
            assertThat(readAt(channel, farOffset)).isEqualTo(far);
        }
    }

    @Test
    void aFixedWriteFromOutsideItsRegisteredBufferIsRefused() throws Exception {
        NativeAssumptions.assumeAvailable("registered buffers", UringProbe.here().fixedBuffers() == null,
                UringProbe.here().fixedBuffers());
        ByteBuffer registered = AlignedBuffers.allocate(4096, 4096);
        ByteBuffer other = AlignedBuffers.allocate(4096, 4096);
        try (FileChannel channel = FileChannel.open(dir.resolve("w"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                IoUring ring = IoUring.open(RingOptions.plain(4))) {
            ring.registerBuffers(List.of(registered));
            // WRITE_FIXED reads buffer 0's pinned pages: an address outside them is the kernel's EFAULT, which a plain
            // WRITE (that would take any address) never gives.
            ring.sq().writeFixed(Fds.of(channel), AlignedBuffers.address(other), 4096, 0, 0, 7);
            ring.submitAndWait(1);
            int[] result = new int[1];
            ring.cq().reap((userData, res, flags) -> result[0] = res);
            assertThat(result[0]).isEqualTo(-Errno.EFAULT);
        }
    }

    private static byte[] readAt(FileChannel channel, long offset) throws Exception {
        ByteBuffer into = ByteBuffer.allocate(LENGTH);
        while (into.hasRemaining()) {
            channel.read(into, offset + into.position());
        }
        return into.array();
    }
}
