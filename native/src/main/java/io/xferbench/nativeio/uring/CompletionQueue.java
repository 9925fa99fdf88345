package io.xferbench.nativeio.uring;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The CQ ring: the kernel's tail is read with acquire (so the CQEs it covers are visible), and the head handed back
 * with a release store once those CQEs are read, so the kernel never overwrites one still being read.
 */
public final class CompletionQueue {
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    /** What a completion carries: the submission's user data, the result (count, or -errno) and the CQE flags. */
    @FunctionalInterface
    public interface Handler {
        void complete(long userData, int result, int flags) throws IOException;
    }

    private final ByteBuffer ring;
    private final int headOffset;
    private final int tailOffset;
    private final int cqesOffset;
    private final int mask;
    private final int entries;

    CompletionQueue(ByteBuffer ring, ByteBuffer params) {
        this.ring = ring;
        this.headOffset = params.getInt(UringAbi.CQ_OFF + UringAbi.OFF_HEAD);
        this.tailOffset = params.getInt(UringAbi.CQ_OFF + UringAbi.OFF_TAIL);
        this.cqesOffset = params.getInt(UringAbi.CQ_OFF + UringAbi.CQ_OFF_CQES);
        this.mask = ring.getInt(params.getInt(UringAbi.CQ_OFF + UringAbi.OFF_RING_MASK));
        this.entries = ring.getInt(params.getInt(UringAbi.CQ_OFF + UringAbi.OFF_RING_ENTRIES));
    }

    /** IORING_CQE_F_MORE: another completion of the same request follows (a SEND_ZC's notification). */
    public static boolean more(int flags) {
        return (flags & UringAbi.CQE_F_MORE) != 0;
    }

    /** IORING_CQE_F_NOTIF: a SEND_ZC's notification, the kernel done with the buffer's pages. */
    public static boolean notification(int flags) {
        return (flags & UringAbi.CQE_F_NOTIF) != 0;
    }

    public int entries() {
        return entries;
    }

    /** Completions reaped so far (the head: a counter that wraps, as the SQ's tail does). */
    int reaped() {
        return ring.getInt(headOffset);
    }

    /** Completions posted and not yet reaped. */
    public int ready() {
        return (int) INT.getAcquire(ring, tailOffset) - ring.getInt(headOffset);
    }

    /**
     * Hands every ready completion to {@code handler}, oldest first, and returns how many. The head moves past each
     * one handed over, also when the handler throws.
     */
    public int reap(Handler handler) throws IOException {
        int head = ring.getInt(headOffset);
        int tail = (int) INT.getAcquire(ring, tailOffset);
        int reaped = 0;
        try {
            while (head != tail) {
                int cqe = cqesOffset + (head & mask) * UringAbi.CQE_BYTES;
                long userData = ring.getLong(cqe + UringAbi.CQE_USER_DATA);
                int result = ring.getInt(cqe + UringAbi.CQE_RES);
                int flags = ring.getInt(cqe + UringAbi.CQE_FLAGS);
                head++;
                reaped++;
                handler.complete(userData, result, flags);
            }
        } finally {
            INT.setRelease(ring, headOffset, head);
        }
        return reaped;
    }
}
