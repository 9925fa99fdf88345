package io.xferbench.core.read;

import java.nio.file.Path;

/**
 * What to read: {@code span} bytes of {@code file} in blocks of {@code blockSize} (the span is a whole number of
 * blocks), with {@code concurrency} threads or requests in flight. Sequential reads every block once; random
 * reads {@code randomOps} blocks at offsets fixed by {@code seed} (see {@link ReadPlan}). {@code ringFlags}: the setup
 * flags of the engines on the suite's own ring (the others ignore them).
 */
public record ReadSpec(Path file, long span, ReadPattern pattern, int blockSize, int concurrency, long randomOps,
                       long seed, RingFlags ringFlags) {
    /** A spec whose own-ring engines set up their rings with {@link RingFlags#DEFAULT}. */
    public ReadSpec(Path file, long span, ReadPattern pattern, int blockSize, int concurrency, long randomOps, long seed) {
        this(file, span, pattern, blockSize, concurrency, randomOps, seed, RingFlags.DEFAULT);
    }

    public ReadSpec {
        if (ringFlags == null) {
            throw new IllegalArgumentException("ringFlags is null");
        }
        if (blockSize <= 0 || span <= 0 || span % blockSize != 0) {
            throw new IllegalArgumentException("span " + span + " must be a positive multiple of the block size "
                    + blockSize);
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be >= 1: " + concurrency);
        }
        if (pattern == ReadPattern.RANDOM && randomOps < 1) {
            throw new IllegalArgumentException("random reads need randomOps >= 1");
        }
    }

    /** The same reads, the own-ring engines setting up their rings with {@code flags}. */
    public ReadSpec withRingFlags(RingFlags flags) {
        return new ReadSpec(file, span, pattern, blockSize, concurrency, randomOps, seed, flags);
    }

    public ReadPlan plan() {
        return new ReadPlan(this);
    }
}
