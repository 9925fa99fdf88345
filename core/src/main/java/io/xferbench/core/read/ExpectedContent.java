package io.xferbench.core.read;

import io.xferbench.core.data.ContentGenerator;

import java.nio.ByteBuffer;

/** The digest a correct read of a plan must produce, recomputed from the generator (no second read of the file). */
public final class ExpectedContent {
    private ExpectedContent() {
    }

    public static long digest(ContentGenerator generator, ReadSpec spec) {
        ReadPlan plan = spec.plan();
        ByteBuffer block = ByteBuffer.allocateDirect(spec.blockSize());
        BlockDigest digest = new BlockDigest();
        for (long op = 0, n = plan.ops(); op < n; op++) {
            long offset = plan.offset(op);
            block.clear();
            generator.fill(block, offset);
            block.flip();
            digest.add(offset, block);
        }
        return digest.sum();
    }
}
