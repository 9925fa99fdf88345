package io.xferbench.nativeio.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.testing.NativeAssumptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With SQPOLL the kernel's SQ thread picks up submissions, so io_uring_enter is needed only to wake it: the ring's own
 * count of enters is the measure, against a plain ring that enters once per batch. Asserted without timing: every
 * SQPOLL enter was a wakeup, and with a 10 s idle time (far longer than the test) at most a few.
 */
class UringSqPollTest {
    private static final int OPS = 256;
    private static final int BLOCK = 4096;

    @TempDir
    Path dir;

    @Test
    void sqPollCompletesEveryReadWithAlmostNoEnter() throws Exception {
        UringTesting.assumeRing();
        NativeAssumptions.assumeAvailable("SQPOLL", UringProbe.here().sqPoll() == null, UringProbe.here().sqPoll());
        NativeAssumptions.assumeAvailable("SQPOLL on plain descriptors", UringProbe.here().sqPollPlainFiles() == null,
                UringProbe.here().sqPollPlainFiles());
        byte[] content = UringTesting.bytes(OPS * BLOCK, 9);
        Path file = Files.write(dir.resolve("f"), content);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            int fd = Fds.of(channel);
            long plainEnters = readAll(RingOptions.plain(4), fd, content).enters;
            Counts polled = readAll(RingOptions.plain(4).withSqPoll(10_000), fd, content);
            assertThat(plainEnters).as("a plain ring enters once per batch").isGreaterThanOrEqualTo(OPS);
            assertThat(polled.enters).as("every SQPOLL enter woke the SQ thread").isEqualTo(polled.wakeups);
            assertThat(polled.enters).as("enters for %d reads on an SQPOLL ring", OPS).isLessThanOrEqualTo(4);
        }
    }

    private record Counts(long enters, long wakeups) {
    }

    private static Counts readAll(RingOptions options, int fd, byte[] content) throws Exception {
        byte[] read = new byte[content.length];
        // As many slots as SQ entries: an SQPOLL thread hands the head back after a batch, so the SQ can look full
        // while its reads have completed (RingReads waits for room then).
        List<ByteBuffer> slots = List.of(AlignedBuffers.allocate(BLOCK, 4096), AlignedBuffers.allocate(BLOCK, 4096),
                AlignedBuffers.allocate(BLOCK, 4096), AlignedBuffers.allocate(BLOCK, 4096));
        try (IoUring ring = IoUring.open(options)) {
            new RingReads(ring, RingReads.Source.plain(fd, "f"), slots, false, 1)
                    .run(OPS, k -> (long) k * BLOCK, BLOCK, (op, offset, data, nanos) -> UringTesting.place(read, 0, offset, data));
            assertThat(UringTesting.crc32c(read)).isEqualTo(UringTesting.crc32c(content));
            return new Counts(ring.enters(), ring.wakeups());
        }
    }
}
