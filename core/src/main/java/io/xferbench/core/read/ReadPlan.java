package io.xferbench.core.read;

/**
 * The offset of the k-th read, a pure function of k so any thread may take any op and the verifier can
 * recompute the same offsets. Random offsets are block-aligned and drawn with replacement.
 */
public final class ReadPlan {
    private final ReadSpec spec;
    private final long blocks;

    ReadPlan(ReadSpec spec) {
        this.spec = spec;
        this.blocks = spec.span() / spec.blockSize();
    }

    public long ops() {
        return spec.pattern() == ReadPattern.SEQUENTIAL ? blocks : spec.randomOps();
    }

    public long offset(long op) {
        long block = spec.pattern() == ReadPattern.SEQUENTIAL ? op : Math.floorMod(mix(spec.seed() + op * 0x9E3779B97F4A7C15L), blocks);
        return block * spec.blockSize();
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
