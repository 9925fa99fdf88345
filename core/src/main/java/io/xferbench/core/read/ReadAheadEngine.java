package io.xferbench.core.read;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Glommio's read-ahead design with blocking syscalls: a fixed ring of {@code concurrency} aligned O_DIRECT
 * buffers (e.g. 5 × 512 KiB), each with an O_DIRECT pread64(2) in flight on a small pool of threads, while one
 * consumer takes the blocks in plan order and hands each freed buffer the read {@code concurrency} ops ahead.
 * Latency is per read (submit to completion). io_uring would keep the same buffers in flight without the pool.
 */
public final class ReadAheadEngine implements ReadEngine {
    @Override
    public String name() {
        return "readahead-odirect";
    }

    @Override
    public String fioEngine() {
        return "libaio";
    }

    @Override
    public boolean direct() {
        return true;
    }

    @Override
    public String unsupported(ReadSpec spec) {
        return new JnaDirectEngine().unsupported(spec);
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        ReadPlan plan = spec.plan();
        long ops = plan.ops();
        int depth = spec.concurrency();
        ExecutorService pool = Executors.newFixedThreadPool(depth, Thread.ofPlatform().name(name() + "-", 0).factory());
        try (DirectIoFile file = DirectIoFile.openRead(spec.file())) {
            ByteBuffer[] buffers = new ByteBuffer[depth];
            @SuppressWarnings("unchecked")
            Future<Long>[] inFlight = new Future[depth];
            for (int i = 0; i < depth; i++) {
                buffers[i] = AlignedBuffers.allocate(spec.blockSize(), JnaDirectEngine.bufferAlignment(file));
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < depth; i++) {
                if (i < ops) {
                    inFlight[i] = submit(pool, file, buffers[i], plan.offset(i));
                }
            }
            BlockDigest digest = new BlockDigest();
            for (long op = 0; op < ops; op++) {
                int slot = (int) (op % depth);
                latencies.record(inFlight[slot].get());
                ByteBuffer block = buffers[slot].flip();
                digest.add(plan.offset(op), block);
                if (op + depth < ops) {
                    inFlight[slot] = submit(pool, file, buffers[slot], plan.offset(op + depth));
                }
            }
            return new ReadOutcome(ops, ops * spec.blockSize(), digest.sum(), System.nanoTime() - t0);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(name() + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            pool.shutdownNow();
            try {
                pool.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES); // no pread on a closed fd
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Returns the read's latency in nanoseconds. */
    private static Future<Long> submit(ExecutorService pool, DirectIoFile file, ByteBuffer buffer, long offset) {
        long submitted = System.nanoTime();
        return pool.submit(() -> {
            buffer.clear();
            JnaDirectEngine.preadFully(file, buffer, offset);
            return System.nanoTime() - submitted;
        });
    }
}
