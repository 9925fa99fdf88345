package io.xferbench.core.uring;

import io.xferbench.nativeio.AlignedBuffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The chunks of one IORING_OP_SENDMSG: a {@code struct msghdr} whose iovec array points at the unsent part of each
 * slot, in file order. One SQE per batch keeps the bytes in order on the socket whatever Netty does with the
 * submission queue (linked SENDs are only ordered within one io_uring_enter, and Netty submits early when its ring
 * is full: a chain cut there lets its tail overtake its head). The memory stays valid until the completion.
 */
final class SendBatch {
    // x86-64 / aarch64 LP64 layout of struct msghdr and struct iovec.
    private static final int MSG_IOV = 16;
    private static final int MSG_IOVLEN = 24;
    private static final int MSGHDR_SIZE = 56;
    private static final int IOVEC_SIZE = 16;

    private final ByteBuffer memory;
    private final long msghdr;
    private final long iovecs;
    private final int capacity;
    private final List<UringSlots.Slot> slots = new ArrayList<>();

    SendBatch(int capacity) {
        this.capacity = capacity;
        this.memory = AlignedBuffers.allocate(MSGHDR_SIZE + 8 + capacity * IOVEC_SIZE, 64).order(ByteOrder.nativeOrder());
        this.msghdr = AlignedBuffers.address(memory);
        this.iovecs = msghdr + MSGHDR_SIZE + 8;
        memory.putLong(MSG_IOV, iovecs);
    }

    /** Starts a new batch; the previous one has completed. */
    void clear() {
        slots.clear();
    }

    boolean isFull() {
        return slots.size() == capacity;
    }

    boolean isEmpty() {
        return slots.isEmpty();
    }

    void add(UringSlots.Slot slot) {
        int at = MSGHDR_SIZE + 8 + slots.size() * IOVEC_SIZE;
        memory.putLong(at, slot.sendAddress());
        memory.putLong(at + 8, slot.sendLength());
        slots.add(slot);
        memory.putLong(MSG_IOVLEN, slots.size());
    }

    List<UringSlots.Slot> slots() {
        return slots;
    }

    long msghdrAddress() {
        return msghdr;
    }
}
