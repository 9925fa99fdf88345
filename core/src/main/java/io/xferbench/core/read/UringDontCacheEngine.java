package io.xferbench.core.read;

import io.xferbench.nativeio.Preadv2;
import java.io.IOException;

/**
 * IORING_OP_READ on the suite's own plain ring (as {@code uring-raw}) with RWF_DONTCACHE (Linux 6.14) in each read's
 * rw_flags: buffered reads whose pages leave the page cache once read, as the {@code dontcache} engine's preadv2 reads,
 * but {@code concurrency} of them in flight from one thread. Buffered only: O_DIRECT bypasses the cache the flag is
 * about. No fio twin: fio 3.33's {@code uncached} option sets 0x40, RWF_ATOMIC on this kernel.
 */
public final class UringDontCacheEngine implements ReadEngine {
    private static final OwnRingReads.Shape SHAPE = new OwnRingReads.Shape(false, false, false, Preadv2.RWF_DONTCACHE);

    @Override
    public String name() {
        return "uring-dontcache";
    }

    @Override
    public String fioEngine() {
        return null;
    }

    @Override
    public boolean direct() {
        return false;
    }

    /** The ring probe's reason, or the RWF_DONTCACHE probe's (kernel before 6.14, a file system without it), or null. */
    @Override
    public String unsupported(ReadSpec spec) {
        return OwnRingReads.unsupported(spec, false, SHAPE);
    }

    @Override
    public ReadOutcome read(ReadSpec spec, LatencySink latencies) throws IOException {
        return OwnRingReads.read(spec, latencies, false, SHAPE);
    }
}
