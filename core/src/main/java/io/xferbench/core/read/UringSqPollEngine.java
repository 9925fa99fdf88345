package io.xferbench.core.read;

import java.io.IOException;
import java.util.List;

/**
 * IORING_OP_READ on an SQPOLL ring: a kernel thread takes the submissions, so reads go in without io_uring_enter while
 * it is awake, and the reader waits by polling the CQ (as fio does): two busy threads, whose CPU the row counts (the
 * SQ thread is one of the process's). Its twin is fio's io_uring with {@code --sqthread_poll}.
 */
public final class UringSqPollEngine implements ReadEngine {
    private static final OwnRingReads.Shape SHAPE = new OwnRingReads.Shape(true, false, false);

    private final boolean direct;

    UringSqPollEngine(boolean direct) {
        this.direct = direct;
    }

    @Override
    public String name() {
        return direct ? "uring-sqpoll-odirect" : "uring-sqpoll";
    }

    @Override
    public String fioEngine() {
        return "io_uring";
    }

    @Override
    public List<String> fioOptions() {
        return List.of("--sqthread_poll");
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
