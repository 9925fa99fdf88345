package io.xferbench.core.read;

import java.io.IOException;
import java.util.List;

/**
 * IORING_OP_READ on the suite's own ring ({@code io.xferbench.nativeio.uring}), buffered or O_DIRECT, each read
 * submitted and waited for with io_uring_enter: the baseline the tuned rings are measured against, next to fio's plain
 * {@code ioengine=io_uring}. Unlike {@code io-uring} it runs on no Netty event loop.
 */
public final class UringRawEngine implements ReadEngine {
    private static final OwnRingReads.Shape SHAPE = new OwnRingReads.Shape(false, false, false);

    private final boolean direct;

    UringRawEngine(boolean direct) {
        this.direct = direct;
    }

    @Override
    public String name() {
        return direct ? "uring-raw-odirect" : "uring-raw";
    }

    @Override
    public String fioEngine() {
        return "io_uring";
    }

    @Override
    public List<String> fioOptions() {
        return List.of();
    }

    @Override
    public boolean direct() {
        return direct;
    }

    @Override
    public String unsupported(ReadSpec spec) {
        return OwnRingReads.unsupported(spec, direct, SHAPE);
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        return OwnRingReads.read(spec, latencies, direct, SHAPE);
    }
}
