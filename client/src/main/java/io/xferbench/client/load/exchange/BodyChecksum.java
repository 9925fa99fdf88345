package io.xferbench.client.load.exchange;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/** A response body's CRC32C, fed from read buffers that may also hold what follows the body. */
final class BodyChecksum {
    private final CRC32C crc = new CRC32C();

    /** Consumes at most {@code max} bytes of {@code in} into the checksum; returns how many. */
    int update(ByteBuffer in, long max) {
        int n = (int) Math.min(in.remaining(), max);
        int limit = in.limit();
        in.limit(in.position() + n);
        crc.update(in);
        in.limit(limit);
        return n;
    }

    int value() {
        return (int) crc.getValue();
    }
}
