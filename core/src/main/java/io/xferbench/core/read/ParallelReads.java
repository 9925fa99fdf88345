package io.xferbench.core.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a plan on {@code concurrency} platform threads that claim ops from one counter: the "N threads doing
 * blocking reads" shape shared by the sync, mmap and O_DIRECT engines.
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
        AtomicLong next = new AtomicLong();
        long[] sums = new long[spec.concurrency()];
        Throwable[] failures = new Throwable[spec.concurrency()];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < spec.concurrency(); t++) {
            int me = t;
            threads.add(Thread.ofPlatform().name(threadName + "-" + t).start(() -> {
                try (BlockReader reader = factory.open()) {
                    ByteBuffer buffer = factory.buffer(spec.blockSize());
                    BlockDigest digest = new BlockDigest();
                    for (long op; (op = next.getAndIncrement()) < ops; ) {
                        long offset = plan.offset(op);
                        buffer.clear().limit(Math.min(buffer.capacity(), spec.blockSize()));
                        long start = System.nanoTime();
                        ByteBuffer block = reader.read(buffer, offset);
                        latencies.record(System.nanoTime() - start);
                        digest.add(offset, block);
                    }
                    sums[me] = digest.sum();
                } catch (Throwable e) {
                    failures[me] = e;
                    next.set(Long.MAX_VALUE / 2); // stop the others early
                }
            }));
        }
        join(threads);
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
        long sum = 0;
        for (long s : sums) {
            sum += s;
        }
        return new ReadOutcome(ops, ops * spec.blockSize(), sum);
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
