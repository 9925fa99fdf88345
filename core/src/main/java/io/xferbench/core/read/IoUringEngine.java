package io.xferbench.core.read;

import io.xferbench.core.method.Availability;
import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.uring.UringBlockReads;
import io.xferbench.nativeio.DirectIoFile;
import io.xferbench.nativeio.Fds;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * io_uring IORING_OP_READ with {@code concurrency} reads in flight from one thread (the event loop), buffered or
 * O_DIRECT: the Java row next to fio's {@code ioengine=io_uring}.
 */
public final class IoUringEngine implements ReadEngine {
    private final boolean direct;

    IoUringEngine(boolean direct) {
        this.direct = direct;
    }

    @Override
    public String name() {
        return direct ? "io-uring-odirect" : "io-uring";
    }

    @Override
    public String fioEngine() {
        return "io_uring";
    }

    @Override
    public boolean direct() {
        return direct;
    }

    @Override
    public String unsupported(ReadSpec spec) {
        Availability uring = NettyTransport.IO_URING.availability();
        if (!uring.isAvailable()) {
            return uring.unavailableReason();
        }
        return direct ? JnaDirectEngine.directUnsupported(spec) : null;
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        ReadPlan plan = spec.plan();
        BlockDigest digest = new BlockDigest();
        UringBlockReads.BlockSink sink = (offset, block, nanos) -> {
            digest.add(offset, block);
            latencies.record(nanos);
        };
        long t0;
        long readNanos;
        // The clock includes UringBlockReads' ring and event loop setup, which run() does not expose separately.
        if (direct) {
            try (DirectIoFile file = DirectIoFile.openRead(spec.file())) {
                t0 = System.nanoTime();
                UringBlockReads.run(file.fd(), spec.blockSize(), file.alignment(), spec.concurrency(), plan::offset, plan.ops(), sink);
                readNanos = System.nanoTime() - t0;
            }
        } else {
            try (FileChannel ch = FileChannel.open(spec.file(), StandardOpenOption.READ)) {
                t0 = System.nanoTime();
                UringBlockReads.run(Fds.of(ch), spec.blockSize(), 1, spec.concurrency(), plan::offset, plan.ops(), sink);
                readNanos = System.nanoTime() - t0;
            }
        }
        // The sink ran on the event loop; run() returned after the last completion, which happened-before it.
        return new ReadOutcome(plan.ops(), plan.ops() * spec.blockSize(), digest.sum(), readNanos);
    }
}
