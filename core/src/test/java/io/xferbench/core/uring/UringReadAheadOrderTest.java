package io.xferbench.core.uring;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.PageCache;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link UringBlockReads#runInPlanOrder} (the readahead-io-uring engine): the consumer gets the blocks in plan order
 * even when they complete out of it, with {@code DEPTH} reads in flight, each freed buffer reading the op DEPTH ahead.
 * The order of events on the event loop (offsets asked for at submission, blocks taken) is deterministic, so this
 * is checked exactly, with no timing.
 */
@Timeout(60)
class UringReadAheadOrderTest {
    private static final int BLOCK = 4096;
    private static final int OPS = 64;
    private static final int DEPTH = 4;
    private static final int ATTEMPTS = 5;

    private Path dir;
    private Path file;

    @BeforeEach
    void file() throws IOException {
        MethodAssumptions.assumeAvailable("io_uring reads", UringAvailability.withDuplicatedFds());
        // Under the build directory, not /tmp: eviction needs a disk file system (tmpfs pages never leave).
        dir = Files.createTempDirectory(Path.of("target"), "uring-read-ahead-");
        file = dir.resolve("blocks");
        ByteBuffer all = ByteBuffer.allocate(OPS * BLOCK);
        new ContentGenerator(7).fill(all, 0);
        all.flip();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (all.hasRemaining()) {
                out.write(all);
            }
        }
    }

    @AfterEach
    void cleanUp() throws IOException {
        if (file != null) {
            Files.deleteIfExists(file);
        }
        if (dir != null) {
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void theConsumerTakesBlocksInPlanOrderAndEachFreedBufferReadsDepthAhead() throws IOException {
        List<String> expected = new ArrayList<>();
        for (int op = 0; op < DEPTH; op++) {
            expected.add("read " + op);
        }
        for (int op = 0; op < OPS; op++) {
            expected.add("take " + op);
            if (op + DEPTH < OPS) {
                expected.add("read " + (op + DEPTH));
            }
        }
        // What makes the check mean something: a later op completed before an earlier one in this very run (in
        // completion order, as UringBlockReads.run delivers, the log would then differ from the plan's). A cold block 0
        // behind cached ones nearly always does; a few attempts keep a rare in-order run from skipping the check.
        Events events = readBlockZeroCold();
        for (int attempt = 1; attempt < ATTEMPTS && !events.someOpCompletedBeforeAnEarlierOne(); attempt++) {
            events = readBlockZeroCold();
        }
        MethodAssumptions.assumeAvailable("an out-of-order completion", events.someOpCompletedBeforeAnEarlierOne(),
                "every block completed in plan order in " + ATTEMPTS + " runs: the order check would prove nothing (last run: "
                + events.describe() + ")");
        assertThat(events.log).containsExactlyElementsOf(expected);
    }

    /**
     * Block 0 uncached, the rest cached: a buffered IORING_OP_READ of cached pages completes at submission, the
     * first block's only after the device read, so ops 1.. complete before op 0.
     */
    private Events readBlockZeroCold() throws IOException {
        PageCache.evict(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer rest = ByteBuffer.allocate((OPS - 1) * BLOCK);
            long position = BLOCK; // read-ahead goes forward only: block 0 stays uncached
            while (rest.hasRemaining() && ch.read(rest, position) > 0) {
                position = BLOCK + rest.position();
            }
            Events events = new Events();
            events.residentBefore = PageCache.residency(file).residentPages();
            UringBlockReads.runInPlanOrder(Fds.of(ch), BLOCK, 1, DEPTH, events::submitted, OPS, events::taken);
            return events;
        }
    }

    /** What the event loop did, in order; only its thread touches this while the reads run. */
    private static final class Events {
        final List<String> log = new ArrayList<>();
        final long[] submittedAt = new long[OPS];
        final long[] completedAt = new long[OPS];
        long residentBefore;

        /** Why a run may have completed in order: was block 0 cold, and how long its read took against the next ones'. */
        String describe() {
            long next = 0;
            for (int op = 1; op < DEPTH; op++) {
                next = Math.max(next, completedAt[op] - submittedAt[op]);
            }
            return String.format(Locale.ROOT, "%d of %d pages resident before the reads (%d: block 0 cold), "
                    + "op 0 in %.1f µs, ops 1-%d in at most %.1f µs", residentBefore, OPS, OPS - 1,
                    (completedAt[0] - submittedAt[0]) / 1e3, DEPTH - 1, next / 1e3);
        }

        long submitted(long op) {
            log.add("read " + op);
            submittedAt[(int) op] = System.nanoTime();
            return op * BLOCK;
        }

        void taken(long offset, ByteBuffer block, long latencyNanos) {
            int op = (int) (offset / BLOCK);
            log.add("take " + op);
            completedAt[op] = submittedAt[op] + latencyNanos;
        }

        /** By a margin (5 µs) far above the few nanoseconds between the offset's request and the read's clock start. */
        boolean someOpCompletedBeforeAnEarlierOne() {
            long latestSoFar = Long.MIN_VALUE;
            for (int op = 0; op < OPS; op++) {
                if (completedAt[op] + 5_000 < latestSoFar) {
                    return true;
                }
                latestSoFar = Math.max(latestSoFar, completedAt[op]);
            }
            return false;
        }
    }
}
