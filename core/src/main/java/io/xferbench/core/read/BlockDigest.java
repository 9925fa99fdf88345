package io.xferbench.core.read;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * An order-independent checksum of a set of block reads: the sum over blocks of a mix of (offset, CRC32C of the
 * block's bytes). Threads keep their own sums and add them up, so parallel and out-of-order engines verify the
 * same way as a sequential scan; a wrong byte or a block read at the wrong offset changes the sum.
 */
public final class BlockDigest {
    private long sum;
    private final CRC32C crc = new CRC32C();

    /** Folds the bytes of {@code block} (position to limit, position unchanged) read from {@code offset}. */
    public void add(long offset, ByteBuffer block) {
        int position = block.position();
        crc.reset();
        crc.update(block);
        block.position(position); // not a duplicate(): no allocation per block on the read loop
        sum += fold(offset, (int) crc.getValue());
    }

    public long sum() {
        return sum;
    }

    static long fold(long offset, int crc32c) {
        long z = offset * 0x9E3779B97F4A7C15L ^ (crc32c & 0xFFFFFFFFL);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
