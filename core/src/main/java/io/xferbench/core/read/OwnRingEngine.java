package io.xferbench.core.read;

import io.xferbench.nativeio.Preadv2;
import java.io.IOException;
import java.util.List;

/**
 * The engines on the suite's own ring ({@code io.xferbench.nativeio.uring}): one thread, {@code concurrency} reads
 * in flight, on no Netty event loop (unlike {@code io-uring}). They differ only in the ring's {@link OwnRingReads.Shape}
 * and whether the file is opened O_DIRECT; each fio twin runs io_uring with the shape's flags.
 */
public final class OwnRingEngine implements ReadEngine {
    private final String id;
    private final OwnRingReads.Shape shape;
    private final boolean direct;

    private OwnRingEngine(String id, OwnRingReads.Shape shape, boolean direct) {
        this.id = id;
        this.shape = shape;
        this.direct = direct;
    }

    /**
     * {@code uring-raw}: IORING_OP_READ, each read submitted and waited for with io_uring_enter: the baseline the
     * tuned rings are measured against, next to fio's plain {@code ioengine=io_uring}.
     */
    static OwnRingEngine raw(boolean direct) {
        return new OwnRingEngine("uring-raw", new OwnRingReads.Shape(false, false, false), direct);
    }

    /**
     * {@code uring-fixed}: READ_FIXED from registered buffers on a registered file: the kernel pins the buffers once
     * and skips the fd lookup per read.
     */
    static OwnRingEngine fixed(boolean direct) {
        return new OwnRingEngine("uring-fixed", new OwnRingReads.Shape(false, true, true), direct);
    }

    /**
     * {@code uring-sqpoll}: IORING_OP_READ on an SQPOLL ring: a kernel thread takes the submissions, so reads go in
     * without io_uring_enter while it is awake, and the reader waits by polling the CQ (as fio does): two busy
     * threads, whose CPU the row counts (the SQ thread is one of the process's).
     */
    static OwnRingEngine sqPoll(boolean direct) {
        return new OwnRingEngine("uring-sqpoll", new OwnRingReads.Shape(true, false, false), direct);
    }

    /**
     * {@code uring-dontcache}: the plain ring with RWF_DONTCACHE (Linux 6.14) in each read's rw_flags: buffered reads
     * whose pages leave the page cache once read, as the {@code dontcache} engine's preadv2 reads, but
     * {@code concurrency} of them in flight from one thread. Buffered only: O_DIRECT bypasses the cache the flag is
     * about.
     */
    static OwnRingEngine dontCache() {
        return new OwnRingEngine("uring-dontcache",
                new OwnRingReads.Shape(false, false, false, Preadv2.RWF_DONTCACHE), false);
    }

    @Override
    public String name() {
        return direct ? id + "-odirect" : id;
    }

    /** io_uring, but none for reads with RWF_* flags: fio 3.33's {@code uncached} option sets 0x40, RWF_ATOMIC here. */
    @Override
    public String fioEngine() {
        return shape.rwFlags() == 0 ? "io_uring" : null;
    }

    @Override
    public List<String> fioOptions() {
        return shape.fioOptions();
    }

    @Override
    public boolean direct() {
        return direct;
    }

    /**
     * The probe's reason for the first ring option refused here, or the memlock limit's, or (with RWF_DONTCACHE) the
     * preadv2 probe's, or O_DIRECT's; null when the engine runs.
     */
    @Override
    public String unsupported(ReadSpec spec) {
        return OwnRingReads.unsupported(spec, direct, shape);
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        return OwnRingReads.read(spec, latencies, direct, shape);
    }
}
