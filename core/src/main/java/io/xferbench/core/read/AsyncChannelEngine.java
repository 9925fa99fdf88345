package io.xferbench.core.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code AsynchronousFileChannel}: on Linux the JDK emulates asynchronous file I/O with a thread pool doing
 * pread64(2) (the analogue of posix-aio, fio's posixaio). Queue depth = requests in flight = pool threads; each
 * slot re-issues its next read from its completion handler.
 */
public final class AsyncChannelEngine implements ReadEngine {
    @Override
    public String name() {
        return "async-filechannel";
    }

    @Override
    public String fioEngine() {
        return "posixaio";
    }

    @Override
    public boolean direct() {
        return false;
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        ReadPlan plan = spec.plan();
        long ops = plan.ops();
        int depth = spec.concurrency();
        ExecutorService pool = Executors.newFixedThreadPool(depth, Thread.ofPlatform().name(name() + "-", 0).factory());
        try (AsynchronousFileChannel channel = AsynchronousFileChannel.open(spec.file(),
                Set.of(StandardOpenOption.READ), pool)) {
            AtomicLong next = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch slotsDone = new CountDownLatch(depth);
            Slot[] slots = new Slot[depth];
            for (int i = 0; i < depth; i++) {
                slots[i] = new Slot(channel, plan, ops, next, spec.blockSize(), latencies, failure, slotsDone);
            }
            long t0 = System.nanoTime();
            for (Slot slot : slots) {
                slot.issueNext();
            }
            slotsDone.await();
            long readNanos = System.nanoTime() - t0;
            if (failure.get() != null) {
                throw new IOException(name() + " failed", failure.get());
            }
            long sum = 0;
            for (Slot slot : slots) {
                sum += slot.digest.sum();
            }
            return new ReadOutcome(ops, ops * spec.blockSize(), sum, readNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One request in flight; its completions run one after another, so its digest needs no locking. */
    private static final class Slot implements CompletionHandler<Integer, Void> {
        private final AsynchronousFileChannel channel;
        private final ReadPlan plan;
        private final long ops;
        private final AtomicLong next;
        private final ByteBuffer buffer;
        private final LatencySink latencies;
        private final AtomicReference<Throwable> failure;
        private final CountDownLatch done;
        final BlockDigest digest = new BlockDigest();
        private long offset;
        private long started;

        Slot(AsynchronousFileChannel channel, ReadPlan plan, long ops, AtomicLong next, int blockSize,
             LatencySink latencies, AtomicReference<Throwable> failure, CountDownLatch done) {
            this.channel = channel;
            this.plan = plan;
            this.ops = ops;
            this.next = next;
            this.buffer = ByteBuffer.allocateDirect(blockSize);
            this.latencies = latencies;
            this.failure = failure;
            this.done = done;
        }

        void issueNext() {
            long op = next.getAndIncrement();
            if (op >= ops || failure.get() != null) {
                done.countDown();
                return;
            }
            offset = plan.offset(op);
            buffer.clear();
            started = System.nanoTime();
            submit(offset);
        }

        /** A read that cannot even be submitted (closed channel, rejected by the pool) ends this slot too. */
        private void submit(long position) {
            try {
                channel.read(buffer, position, null, this);
            } catch (RuntimeException e) {
                failed(e, null);
            }
        }

        @Override
        public void completed(Integer n, Void unused) {
            if (n < 0) {
                failed(new IOException("unexpected end of file at " + (offset + buffer.position())), null);
                return;
            }
            if (buffer.hasRemaining()) { // short read: continue the same block
                submit(offset + buffer.position());
                return;
            }
            latencies.record(System.nanoTime() - started);
            digest.add(offset, buffer.flip());
            issueNext();
        }

        @Override
        public void failed(Throwable e, Void unused) {
            failure.compareAndSet(null, e);
            done.countDown();
        }
    }
}
