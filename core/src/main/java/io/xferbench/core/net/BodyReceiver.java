package io.xferbench.core.net;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;

/**
 * The receiving side of every download, identical for all methods so they are compared fairly: a
 * page-aligned direct buffer drained by {@code SocketChannel.read}, with CRC32C (a CPU intrinsic) over what
 * arrived when verifying. The buffer is taken from {@link ReceiveBuffers} on the first non-empty body, not before: a
 * connection that only exchanges frames (STAT, an empty body, the proxy's connect scenario) never pays for 1 MiB of
 * direct memory; {@link #release} gives it back.
 */
public final class BodyReceiver {
    public static final int BUFFER_SIZE = 1 << 20;

    /** Held here between bodies; out of it while a body is received, so a concurrent {@link #release} cannot give it away. */
    private final AtomicReference<ByteBuffer> idle = new AtomicReference<>();
    private volatile boolean released;
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
        if (length <= 0) {
            return checksum ? (int) crc.getValue() : 0;
        }
        ByteBuffer buffer = idle.getAndSet(null);
        if (buffer == null) {
            buffer = ReceiveBuffers.take();
        }
        try {
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
        } finally {
            idle.set(buffer);
            if (released) {
                giveBack(); // released while receiving: whichever of the two sees the buffer gives it back, once
            }
        }
        return checksum ? (int) crc.getValue() : 0;
    }

    /**
     * Takes the buffer now if this receiver holds none, so that a timed first body does not pay for it (as every body
     * did when each connection allocated its own at open). Call it on the thread that receives, not during a receive.
     */
    public BodyReceiver reserve() {
        ByteBuffer held = idle.getAndSet(null);
        idle.set(held != null ? held : ReceiveBuffers.take());
        if (released) {
            giveBack();
        }
        return this;
    }

    /**
     * Gives the buffer back to {@link ReceiveBuffers} (at once, or when a {@link #receive} running on another thread
     * ends); a later receive takes another. Idempotent.
     */
    public void release() {
        released = true;
        giveBack();
    }

    private void giveBack() {
        ByteBuffer buffer = idle.getAndSet(null);
        if (buffer != null) {
            ReceiveBuffers.give(buffer);
        }
    }
}
