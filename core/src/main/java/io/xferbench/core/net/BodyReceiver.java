package io.xferbench.core.net;

import io.xferbench.nativeio.AlignedBuffers;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * The receiving side of every download, identical for all methods so they are compared fairly: a
 * page-aligned direct buffer drained by {@code SocketChannel.read}, with CRC32C (a CPU intrinsic) over what
 * arrived when verifying.
 */
public final class BodyReceiver {
    public static final int BUFFER_SIZE = 1 << 20;

    private final ByteBuffer buffer = AlignedBuffers.allocate(BUFFER_SIZE, AlignedBuffers.pageSize());
    private final CRC32C crc = new CRC32C();
    /** Read by another thread (a progress line) while a long body arrives; one add per read of up to 1 MiB. */
    private final AtomicLong received = new AtomicLong();

    /** Body bytes received so far, over every {@link #receive} of this receiver. */
    public long received() {
        return received.get();
    }

    /** Reads exactly {@code length} bytes; returns their CRC32C, or 0 when not verifying. */
    public int receive(ReadableByteChannel in, long length, boolean checksum) throws IOException {
        crc.reset();
        long remaining = length;
        while (remaining > 0) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), remaining));
            int n = in.read(buffer);
            if (n < 0) {
                throw new EOFException("connection closed after " + (length - remaining) + " of " + length + " body bytes");
            }
            if (checksum) {
                crc.update(buffer.flip());
            }
            remaining -= n;
            received.addAndGet(n);
        }
        return checksum ? (int) crc.getValue() : 0;
    }
}
