package io.xferbench.core.read;

import java.nio.file.Path;

/**
 * What to read: {@code span} bytes of {@code file} in blocks of {@code blockSize} (the span is a whole number of
 * blocks), with {@code concurrency} threads or requests in flight. Sequential reads every block once; random
 * reads {@code randomOps} blocks at offsets fixed by {@code seed} (see {@link ReadPlan}).
 */
public record ReadSpec(Path file, long span, ReadPattern pattern, int blockSize, int concurrency, long randomOps,
                       long seed) {
    public ReadSpec {
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

    public ReadPlan plan() {
        return new ReadPlan(this);
    }
}
