package io.xferbench.core.read;

import io.xferbench.core.uring.UringBlockReads;
import io.xferbench.nativeio.DirectIoFile;
import java.io.IOException;

/**
 * Glommio's read-ahead as Glommio does it, on io_uring: a ring of {@code concurrency} aligned O_DIRECT buffers, each
 * with an IORING_OP_READ in flight, while one consumer takes the blocks in plan order and hands each freed buffer the
 * read {@code concurrency} ops ahead ({@link UringBlockReads#runInPlanOrder}). Consumer and submissions share the
 * event loop thread, so unlike {@link ReadAheadEngine}'s thread pool no block costs a hand-off between threads.
 */
public final class ReadAheadUringEngine implements ReadEngine {
    @Override
    public String name() {
        return "readahead-io-uring";
    }

    @Override
    public String fioEngine() {
        return "io_uring";
    }

    @Override
    public boolean direct() {
        return true;
    }

    @Override
    public String unsupported(ReadSpec spec) {
        return new IoUringEngine(true).unsupported(spec);
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        ReadPlan plan = spec.plan();
        BlockDigest digest = new BlockDigest();
        try (DirectIoFile file = DirectIoFile.openRead(spec.file())) {
            // As IoUringEngine's, the clock includes the ring's buffers and registration, which run does not expose.
            long t0 = System.nanoTime();
            UringBlockReads.runInPlanOrder(file.fd(), spec.blockSize(), file.alignment(), spec.concurrency(), plan::offset,
                    plan.ops(), (offset, block, nanos) -> {
                        digest.add(offset, block);
                        latencies.record(nanos);
                    });
            // The sink ran on the event loop; runInPlanOrder returned after the last completion, which happened-before it.
            return new ReadOutcome(plan.ops(), plan.ops() * spec.blockSize(), digest.sum(), System.nanoTime() - t0);
        }
    }
}
