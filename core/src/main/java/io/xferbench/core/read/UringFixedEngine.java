package io.xferbench.core.read;

import java.io.IOException;
import java.util.List;

/**
 * READ_FIXED from registered buffers on a registered file: the kernel pins the buffers once and skips the fd lookup
 * per read. Its twin is fio's io_uring with {@code --fixedbufs --registerfiles}.
 */
public final class UringFixedEngine implements ReadEngine {
    private static final OwnRingReads.Shape SHAPE = new OwnRingReads.Shape(false, true, true);

    private final boolean direct;

    UringFixedEngine(boolean direct) {
        this.direct = direct;
    }

    @Override
    public String name() {
        return direct ? "uring-fixed-odirect" : "uring-fixed";
    }

    @Override
    public String fioEngine() {
        return "io_uring";
    }

    @Override
    public List<String> fioOptions() {
        return List.of("--fixedbufs", "--registerfiles");
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
