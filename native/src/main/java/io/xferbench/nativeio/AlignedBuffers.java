package io.xferbench.nativeio;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;

/** Direct buffers with a chosen address alignment, for O_DIRECT (and for deliberately breaking it). */
public final class AlignedBuffers {
    private static final int PAGE_SIZE = NativeSupport.available() ? (int) Libc.sysconf(Libc.SC_PAGESIZE) : 4096;

    private AlignedBuffers() {
    }

    /** sysconf(_SC_PAGESIZE); 4096 when the shim is unavailable. */
    public static int pageSize() {
        return PAGE_SIZE;
    }

    /**
     * A direct buffer of exactly {@code capacity} bytes whose index 0 sits at an address that is a multiple of
     * {@code alignment} (a power of two). Over-allocates by up to two alignments.
     */
    public static ByteBuffer allocate(int capacity, int alignment) {
        checkAlignment(alignment);
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity " + capacity + " < 0");
        }
        // alignedSlice rounds the start up and the end down; a whole spare alignment covers both.
        int rounded = Math.addExact(capacity, alignment - 1) & -alignment;
        return ByteBuffer.allocateDirect(Math.addExact(rounded, alignment))
                .alignedSlice(alignment)
                .limit(capacity)
                .slice();
    }

    /** A direct buffer of {@code capacity} bytes whose address is {@code skew} bytes past an {@code alignment} boundary. */
    public static ByteBuffer misaligned(int capacity, int alignment, int skew) {
        checkAlignment(alignment);
        if (skew < 0 || skew >= alignment) {
            throw new IllegalArgumentException("skew " + skew + " is not in [0, " + alignment + ")");
        }
        return allocate(Math.addExact(capacity, skew), alignment).position(skew).slice();
    }

    /** The native address of index 0 of a direct buffer (not of its position). */
    public static long address(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("a heap ByteBuffer has no stable native address; use a direct buffer");
        }
        return Pointer.nativeValue(Native.getDirectBufferPointer(buffer));
    }

    private static void checkAlignment(int alignment) {
        if (alignment <= 0 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment " + alignment + " is not a positive power of two");
        }
    }
}
