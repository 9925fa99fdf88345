package io.xferbench.core.uring;

import io.xferbench.nativeio.AlignedBuffers;
import java.nio.ByteBuffer;

/** Page-aligned direct buffers whose addresses go into SQEs; kept reachable here while the kernel may use them. */
final class UringBuffers {
    private final ByteBuffer[] buffers;
    private final long[] addresses;

    UringBuffers(int count, int size) {
        if (count < 1 || count > Short.MAX_VALUE) {
            throw new IllegalArgumentException("buffer count " + count + " is not in [1, " + Short.MAX_VALUE + "]");
        }
        if (size < 1) {
            throw new IllegalArgumentException("buffer size " + size + " < 1");
        }
        buffers = new ByteBuffer[count];
        addresses = new long[count];
        for (int i = 0; i < count; i++) {
            buffers[i] = AlignedBuffers.allocate(size, AlignedBuffers.pageSize());
            addresses[i] = AlignedBuffers.address(buffers[i]);
        }
    }

    int count() {
        return buffers.length;
    }

    int size() {
        return buffers[0].capacity();
    }

    long address(int index) {
        return addresses[index];
    }

    /** {@code [from, from + length)} of buffer {@code index}, as a fresh view. */
    ByteBuffer slice(int index, int from, int length) {
        return buffers[index].slice(from, length);
    }
}
