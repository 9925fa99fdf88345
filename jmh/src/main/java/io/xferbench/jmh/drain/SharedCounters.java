package io.xferbench.jmh.drain;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A few longs in a file both the benchmark fork and the drain process map shared: the drain publishes what
 * it has received with a release store, the benchmark spins on an acquire load. Waiting this way costs the
 * counted process no syscall at all (a socket ack would cost a read(2) per op and hide what transfer-to,
 * mmap or io-uring really do).
 */
final class SharedCounters {
    static final int SIZE = 64;
    /** Body bytes received so far (monotonic). */
    static final int RECEIVED = 0;
    /** TCP port the drain listens on, 0 until it does. */
    static final int PORT = 8;
    /** CRC32C of the first transfer on the connection, + 1 (0 = not yet). */
    static final int FIRST_CRC = 16;
    /** 0 running, 1 ended normally, -1 failed (see the drain's log). */
    static final int STATUS = 24;
    /** Set to 1 by the benchmark before it closes the connection: an EOF after that is the normal end. */
    static final int CLOSING = 32;

    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final MappedByteBuffer map;

    private SharedCounters(MappedByteBuffer map) {
        this.map = map;
    }

    static SharedCounters map(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            // The mapping outlives the channel.
            return new SharedCounters(ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE));
        }
    }

    long getAcquire(int slot) {
        return (long) LONGS.getAcquire(map, slot);
    }

    void setRelease(int slot, long value) {
        LONGS.setRelease(map, slot, value);
    }
}
