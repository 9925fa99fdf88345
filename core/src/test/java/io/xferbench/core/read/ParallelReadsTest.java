package io.xferbench.core.read;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How {@link ParallelReads} splits a plan over threads: every op of the plan is read exactly once (the offsets read,
 * counted with multiplicity, are the plan's), whatever the thread count, including counts that do not divide the
 * ops and more threads than ops; each thread records into its own sink; a thread failing in setup fails the run.
 */
class ParallelReadsTest {
    private static final int BLOCK = 4096;
    private static final Path NO_FILE = Path.of("not-opened");

    static Stream<Arguments> splits() {
        List<Arguments> cases = new ArrayList<>();
        for (ReadPattern pattern : ReadPattern.values()) {
            for (int threads : new int[] {1, 3, 7, 32, 250}) {
                cases.add(Arguments.of(pattern, threads));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} on {1} threads")
    @MethodSource("splits")
    void everyOpIsReadExactlyOnce(ReadPattern pattern, int threads) throws IOException {
        // 203 blocks and 203 random ops: a prime, so no thread count above 1 divides it.
        ReadSpec spec = new ReadSpec(NO_FILE, 203L * BLOCK, pattern, BLOCK, threads, 203, 42);
        Map<Long, Integer> read = new ConcurrentHashMap<>();
        Map<Thread, Boolean> readers = new ConcurrentHashMap<>();
        CountingSink sink = new CountingSink();

        ReadOutcome outcome = ParallelReads.run(spec, sink, "test", factory((dst, offset) -> {
            read.merge(offset, 1, Integer::sum);
            readers.put(Thread.currentThread(), true);
        }));

        Map<Long, Integer> planned = new TreeMap<>();
        for (long k = 0; k < spec.plan().ops(); k++) {
            planned.merge(spec.plan().offset(k), 1, Integer::sum);
        }
        assertEquals(planned, new TreeMap<>(read), "offsets read differ from the plan's (an op lost or read twice)");
        assertEquals(spec.plan().ops(), outcome.ops());
        assertEquals(spec.plan().ops(), sink.recorded.get(), "one latency per read");
        assertEquals(threads, sink.threadSinks.get(), "each thread takes its own sink");
        // Random ops are dealt round-robin; sequential stripes are ops / threads blocks, the last taking the rest
        // (so with more threads than blocks the last thread reads them all).
        int sharing = pattern == ReadPattern.RANDOM ? Math.min(threads, 203) : (threads <= 203 ? threads : 1);
        assertEquals(sharing, readers.size(), "every thread with a share read it itself");
        assertTrue(outcome.readNanos() >= 0);
    }

    @Test
    void aThreadFailingToOpenFailsTheRunWithoutHangingTheOthers() {
        ReadSpec spec = new ReadSpec(NO_FILE, 64L * BLOCK, ReadPattern.RANDOM, BLOCK, 8, 64, 42);
        AtomicInteger opened = new AtomicInteger();
        ParallelReads.ReaderFactory failingThird = new ParallelReads.ReaderFactory() {
            @Override
            public ParallelReads.BlockReader open() throws IOException {
                if (opened.incrementAndGet() == 3) {
                    throw new IOException("cannot open");
                }
                return (dst, offset) -> dst.position(dst.limit()).flip();
            }

            @Override
            public ByteBuffer buffer(int blockSize) {
                return ByteBuffer.allocate(blockSize);
            }
        };
        IOException e = assertThrows(IOException.class, () -> ParallelReads.run(spec, LatencySink.NONE, "test", failingThird));
        assertEquals("cannot open", e.getMessage());
    }

    interface OnRead {
        void read(ByteBuffer dst, long offset);
    }

    private static ParallelReads.ReaderFactory factory(OnRead onRead) {
        return new ParallelReads.ReaderFactory() {
            @Override
            public ParallelReads.BlockReader open() {
                return (dst, offset) -> {
                    onRead.read(dst, offset);
                    return dst.position(dst.limit()).flip();
                };
            }

            @Override
            public ByteBuffer buffer(int blockSize) {
                return ByteBuffer.allocate(blockSize);
            }
        };
    }

    /** Counts reads and per-thread sinks; the shared path must not be used by the parallel engines. */
    private static final class CountingSink implements LatencySink {
        final AtomicLong recorded = new AtomicLong();
        final AtomicInteger threadSinks = new AtomicInteger();
        final List<Thread> owners = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void record(long nanos) {
            throw new AssertionError("a parallel reader recorded into the shared sink");
        }

        @Override
        public LatencySink forThread() {
            threadSinks.incrementAndGet();
            Thread owner = Thread.currentThread();
            owners.add(owner);
            return nanos -> {
                if (Thread.currentThread() != owner) {
                    throw new AssertionError("a thread's sink was used by another thread");
                }
                recorded.incrementAndGet();
            };
        }
    }
}
