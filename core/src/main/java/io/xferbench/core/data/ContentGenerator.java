package io.xferbench.core.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Deterministic pseudo-random bytes: the 8-byte word at index i is a SplitMix64 finalisation of
 * {@code seed + i * golden}, so any range can be regenerated independently and nothing compresses or dedupes.
 */
public final class ContentGenerator {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final long seed;

    public ContentGenerator(long seed) {
        this.seed = seed;
    }

    /** Fills dst (position to limit) with the bytes that belong at file offset {@code offset}. */
    public void fill(ByteBuffer dst, long offset) {
        ByteBuffer out = dst.slice().order(ByteOrder.LITTLE_ENDIAN);
        int n = out.remaining();
        long word = offset >>> 3;
        int skip = (int) (offset & 7);
        int i = 0;
        if (skip != 0) {
            long w = mix(seed + word * GOLDEN) >>> (skip * 8);
            for (; i < Math.min(n, 8 - skip); i++, w >>>= 8) {
                out.put(i, (byte) w);
            }
            word++;
        }
        for (; i + 8 <= n; i += 8, word++) {
            out.putLong(i, mix(seed + word * GOLDEN));
        }
        if (i < n) {
            long w = mix(seed + word * GOLDEN);
            for (; i < n; i++, w >>>= 8) {
                out.put(i, (byte) w);
            }
        }
        dst.position(dst.limit());
    }

    /** CRC32C of the first {@code length} bytes, as a client expects them without reading the file. */
    public int crc32c(long length) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(length, 1 << 20));
        for (long offset = 0; offset < length; offset += chunk.capacity()) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), length - offset));
            fill(chunk, offset);
            crc.update(chunk.flip());
        }
        return (int) crc.getValue();
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
