package io.xferbench.core.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;

/**
 * Runs a plan on {@code concurrency} platform threads doing blocking reads: the shape shared by the sync, mmap and
 * O_DIRECT engines. Each thread owns a fixed share of the plan, so threads share nothing while they read (fio's
 * jobs do the same): a sequential plan is cut into {@code concurrency} contiguous stripes, one per thread, each read
 * in order (fio's {@code numjobs} with {@code offset_increment}: N sequential streams, each with its own read-ahead
 * state when the reader opens its own descriptor); random ops are dealt round-robin, thread t taking ops t, t + N,
 * t + 2N, ... (each thread's offsets are drawn from the whole plan, and fio's random jobs also do a fixed
 * ops / N each). Every thread opens its reader, buffer and latency sink before the clock starts.
 */
final class ParallelReads {
    /** One thread's blocking read of a whole block at an offset into its own buffer. */
    interface BlockReader extends AutoCloseable {
        /** Fills {@code dst} (cleared, limit = block size) from {@code offset}; returns the block to digest. */
        ByteBuffer read(ByteBuffer dst, long offset) throws IOException;

        @Override
        default void close() throws IOException {
        }
    }

    /** A thread's own FileChannel (its own descriptor): positional reads of whole blocks. */
    static final class ChannelReader implements BlockReader {
        private final java.nio.channels.FileChannel channel;

        private ChannelReader(java.nio.channels.FileChannel channel) {
            this.channel = channel;
        }

        static ChannelReader open(java.nio.file.Path file, java.nio.file.OpenOption... options) throws IOException {
            return new ChannelReader(java.nio.channels.FileChannel.open(file, options));
        }

        @Override
        public ByteBuffer read(ByteBuffer dst, long offset) throws IOException {
            readFully(channel, dst, offset);
            return dst.flip();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    interface ReaderFactory {
        BlockReader open() throws IOException;

        ByteBuffer buffer(int blockSize);
    }

    private ParallelReads() {
    }

    static ReadOutcome run(ReadSpec spec, LatencySink latencies, String threadName, ReaderFactory factory)
            throws IOException {
        ReadPlan plan = spec.plan();
        long ops = plan.ops();
        int n = spec.concurrency();
        boolean striped = spec.pattern() == ReadPattern.SEQUENTIAL;
        long stripe = ops / n;
        AtomicBoolean failed = new AtomicBoolean();
        CountDownLatch ready = new CountDownLatch(n);
        CountDownLatch go = new CountDownLatch(1);
        long[] sums = new long[n];
        Throwable[] failures = new Throwable[n];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            int me = t;
            threads.add(Thread.ofPlatform().name(threadName + "-" + t).start(() -> {
                boolean counted = false;
                try (BlockReader reader = factory.open()) {
                    ByteBuffer buffer = factory.buffer(spec.blockSize());
                    LatencySink mine = latencies.forThread();
                    BlockDigest digest = new BlockDigest();
                    // Sequential: ops first, first + 1, ..., end - 1 (the last stripe takes the remainder).
                    // Random: ops me, me + n, me + 2n, ... below ops.
                    long first = striped ? me * stripe : me;
                    long end = striped ? (me == n - 1 ? ops : first + stripe) : ops;
                    long step = striped ? 1 : n;
                    ready.countDown();
                    counted = true;
                    go.await();
                    for (long op = first; op < end && !failed.get(); op += step) {
                        long offset = plan.offset(op);
                        buffer.clear().limit(Math.min(buffer.capacity(), spec.blockSize()));
                        long start = System.nanoTime();
                        ByteBuffer block = reader.read(buffer, offset);
                        mine.record(System.nanoTime() - start);
                        digest.add(offset, block);
                    }
                    sums[me] = digest.sum();
                } catch (Throwable e) {
                    failures[me] = e;
                    failed.set(true); // stop the others early
                } finally {
                    if (!counted) {
                        ready.countDown(); // failed during setup: do not keep the others waiting
                    }
                }
            }));
        }
        long readNanos = timed(ready, go, threads);
        rethrowFirst(failures, threadName);
        return new ReadOutcome(ops, ops * spec.blockSize(), LongStream.of(sums).sum(), readNanos);
    }

    /** Lets the readers go together once all are set up; the nanoseconds until the last one finished. */
    private static long timed(CountDownLatch ready, CountDownLatch go, List<Thread> threads) throws IOException {
        try {
            ready.await();
            long t0 = System.nanoTime();
            go.countDown();
            join(threads);
            return System.nanoTime() - t0;
        } catch (InterruptedException e) {
            go.countDown();
            threads.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** The first reader's failure, as the IOException it was (or wraps), else wrapped in one. */
    private static void rethrowFirst(Throwable[] failures, String threadName) throws IOException {
        for (Throwable f : failures) {
            if (f instanceof IOException e) {
                throw e;
            }
            if (f instanceof UncheckedIOException e) {
                throw e.getCause();
            }
            if (f != null) {
                throw new IOException(threadName + " failed", f);
            }
        }
    }

    static void join(List<Thread> threads) throws IOException {
        try {
            for (Thread thread : threads) {
                thread.join();
            }
        } catch (InterruptedException e) {
            threads.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Reads exactly dst.remaining() bytes with positional reads; a short read at EOF is an error. */
    static void readFully(java.nio.channels.FileChannel channel, ByteBuffer dst, long offset) throws IOException {
        long position = offset;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, position);
            if (n < 0) {
                throw new IOException("unexpected end of file at " + position);
            }
            position += n;
        }
    }
}
