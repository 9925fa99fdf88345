package io.xferbench.core.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a plan on {@code concurrency} platform threads doing blocking reads: the shape shared by the sync, mmap and
 * O_DIRECT engines. A sequential plan is cut into {@code concurrency} contiguous stripes, one per thread, each read
 * in order (fio's {@code numjobs} with {@code offset_increment}: N sequential streams, each with its own read-ahead
 * state when the reader opens its own descriptor); random ops are claimed from one counter.
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
        AtomicLong next = new AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        long[] sums = new long[spec.concurrency()];
        Throwable[] failures = new Throwable[spec.concurrency()];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < spec.concurrency(); t++) {
            int me = t;
            threads.add(Thread.ofPlatform().name(threadName + "-" + t).start(() -> {
                try (BlockReader reader = factory.open()) {
                    ByteBuffer buffer = factory.buffer(spec.blockSize());
                    BlockDigest digest = new BlockDigest();
                    long first = me * stripe;
                    long end = me == n - 1 ? ops : first + stripe; // the last stripe takes the remainder
                    for (long k = first; !failed.get(); k++) {
                        long op = striped ? k : next.getAndIncrement();
                        if (op >= (striped ? end : ops)) {
                            break;
                        }
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
                    failed.set(true); // stop the others early
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
