package io.xferbench.nativeio;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;

/** Direct buffers at a chosen alignment, with their address visible so results can state {@code address % 4096}. */
public final class AlignedBuffers {
    private static final int PAGE_SIZE = 4096;

    private AlignedBuffers() {
    }

    public static int pageSize() {
        return PAGE_SIZE;
    }

    public static ByteBuffer allocate(int capacity, int alignment) {
        return ByteBuffer.allocateDirect(capacity + alignment).alignedSlice(alignment).limit(capacity).slice();
    }

    /** A direct buffer whose address is {@code skew} bytes past an {@code alignment} boundary. */
    public static ByteBuffer misaligned(int capacity, int alignment, int skew) {
        return ByteBuffer.allocateDirect(capacity + 2 * alignment).alignedSlice(alignment).position(skew).limit(skew + capacity).slice();
    }

    public static long address(ByteBuffer buffer) {
        return Pointer.nativeValue(Native.getDirectBufferPointer(buffer));
    }
}
