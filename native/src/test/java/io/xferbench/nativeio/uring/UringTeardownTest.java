package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.testing.NativeAssumptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A ring leaves nothing behind on any exit path: no descriptor, no SQ thread, no request still writing a buffer. */
class UringTeardownTest {
    private static final int BLOCK = 4096;

    @TempDir
    Path dir;

    @BeforeEach
    void ring() {
        UringTesting.assumeRing();
    }

    @Test
    void closingARingWithEverythingRegisteredLeavesNoDescriptor() throws Exception {
        NativeAssumptions.assumeAvailable("registered buffers", UringProbe.here().fixedBuffers() == null,
                UringProbe.here().fixedBuffers());
        Path file = Files.write(dir.resolve("f"), UringTesting.bytes(BLOCK, 1));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long before = UringTesting.openDescriptors();
            IoUring ring = IoUring.open(RingOptions.plain(4));
            ring.registerBuffers(List.of(AlignedBuffers.allocate(BLOCK, 4096)));
            ring.registerFiles(Fds.of(channel));
            assertThat(UringTesting.openDescriptors()).isEqualTo(before + 1);
            ring.close();
            assertThat(UringTesting.openDescriptors()).isEqualTo(before);
            ring.close();
        }
    }

    @Test
    void aFailedReadThrowsTheErrnoAndLeavesNoDescriptor() throws Exception {
        long before = UringTesting.openDescriptors();
        List<ByteBuffer> slots = List.of(AlignedBuffers.allocate(BLOCK, 4096));
        try (IoUring ring = IoUring.open(RingOptions.plain(4))) {
            RingReads reads = new RingReads(ring, RingReads.Source.plain(-1, "no file"), slots, false, 1);
            assertThatThrownBy(() -> reads.run(3, k -> 0L, BLOCK, (op, offset, data, nanos) -> { }))
                    .isInstanceOfSatisfying(NativeException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EBADF))
                    .hasMessageContaining("io_uring READ(no file, 4096 bytes at offset 0)");
        }
        assertThat(UringTesting.openDescriptors()).isEqualTo(before);
    }

    @Test
    void aRefusedRegistrationLeavesTheRingUsableAndClosable() throws Exception {
        long before = UringTesting.openDescriptors();
        try (IoUring ring = IoUring.open(RingOptions.plain(4))) {
            assertThatThrownBy(() -> ring.registerFiles(Integer.MAX_VALUE))
                    .isInstanceOfSatisfying(NativeException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EBADF));
        }
        assertThat(UringTesting.openDescriptors()).isEqualTo(before);
    }

    @Test
    void aFailingSinkLeavesNoReadInFlight() throws Exception {
        byte[] content = UringTesting.bytes(64 * BLOCK, 2);
        Path file = Files.write(dir.resolve("f"), content);
        List<ByteBuffer> slots = List.of(AlignedBuffers.allocate(BLOCK, 4096), AlignedBuffers.allocate(BLOCK, 4096),
                AlignedBuffers.allocate(BLOCK, 4096), AlignedBuffers.allocate(BLOCK, 4096));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                IoUring ring = IoUring.open(RingOptions.plain(8))) {
            RingReads reads = new RingReads(ring, RingReads.Source.plain(Fds.of(channel), "f"), slots, false, 4);
            // Four reads go in at once and the sink fails on the first to complete: three are still the ring's.
            assertThatThrownBy(() -> reads.run(64, k -> (long) k * BLOCK, BLOCK, (op, offset, data, nanos) -> {
                throw new IOException("the sink's own failure");
            })).hasMessage("the sink's own failure");
            assertThat(ring.sq().tail()).isEqualTo(4);
            assertThat(ring.cq().reaped()).as("completions reaped of the reads submitted").isEqualTo(ring.sq().tail());
            assertThat(ring.cq().ready()).as("completions left for the next run").isZero();
            byte[] read = new byte[content.length];
            reads.run(64, k -> (long) k * BLOCK, BLOCK, (op, offset, data, nanos) -> UringTesting.place(read, 0, offset, data));
            assertThat(read).isEqualTo(content);
        }
    }

    @Test
    void closingAnSqPollRingStopsItsThread() throws Exception {
        NativeAssumptions.assumeAvailable("SQPOLL", UringProbe.here().sqPoll() == null, UringProbe.here().sqPoll());
        long threads = UringTesting.sqPollThreads();
        long before = UringTesting.openDescriptors();
        IoUring ring = IoUring.open(RingOptions.plain(4).withSqPoll(1000));
        // The thread names itself once it runs, and stops from a kernel work queue after the ring's last reference
        // goes: both are waited for, boundedly.
        assertThat(awaitSqPollThreads(threads + 1)).isEqualTo(threads + 1);
        ring.close();
        assertThat(UringTesting.openDescriptors()).isEqualTo(before);
        assertThat(awaitSqPollThreads(threads)).isEqualTo(threads);
    }

    private static long awaitSqPollThreads(long expected) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        long seen;
        while ((seen = UringTesting.sqPollThreads()) != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return seen;
    }
}
