package io.xferbench.nativeio.uring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The SQ ring and the SQE array: entries are written here, then published to the kernel by a release store of the
 * tail, so the kernel (or the SQ thread) never sees a tail ahead of the entries it covers. The head is the kernel's,
 * read with acquire. One thread uses a queue.
 */
public final class SubmissionQueue {
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final ByteBuffer ring;
    private final ByteBuffer sqes;
    private final int headOffset;
    private final int tailOffset;
    private final int flagsOffset;
    private final int mask;
    private final int entries;
    private int tail;

    SubmissionQueue(ByteBuffer ring, ByteBuffer sqes, ByteBuffer params) {
        this.ring = ring;
        this.sqes = sqes;
        this.headOffset = params.getInt(UringAbi.SQ_OFF + UringAbi.OFF_HEAD);
        this.tailOffset = params.getInt(UringAbi.SQ_OFF + UringAbi.OFF_TAIL);
        this.flagsOffset = params.getInt(UringAbi.SQ_OFF + UringAbi.SQ_OFF_FLAGS);
        int arrayOffset = params.getInt(UringAbi.SQ_OFF + UringAbi.SQ_OFF_ARRAY);
        this.mask = ring.getInt(params.getInt(UringAbi.SQ_OFF + UringAbi.OFF_RING_MASK));
        this.entries = ring.getInt(params.getInt(UringAbi.SQ_OFF + UringAbi.OFF_RING_ENTRIES));
        this.tail = (int) INT.getAcquire(ring, tailOffset);
        // Slot i of the indirection array always names SQE i, so the SQE to fill is simply tail & mask.
        for (int i = 0; i < entries; i++) {
            ring.putInt(arrayOffset + 4 * i, i);
        }
    }

    /** The SQ's size (the kernel's, a power of two at least the entries asked). */
    public int entries() {
        return entries;
    }

    /** Entries written and not yet consumed by the kernel, published or not. */
    public int queued() {
        return tail - (int) INT.getAcquire(ring, headOffset);
    }

    /** Room for {@code n} more entries. */
    public boolean hasRoom(int n) {
        return queued() + n <= entries;
    }

    /** Queues a read of {@code length} bytes at file {@code offset} into {@code address}; false when the SQ is full. */
    public boolean read(int fd, long address, int length, long offset, long userData) {
        return prepare(UringAbi.OP_READ, (byte) 0, fd, address, length, offset, userData, 0);
    }

    /** READ_FIXED: {@code address} lies inside registered buffer {@code bufferIndex}, which the kernel has pinned. */
    public boolean readFixed(int fd, long address, int length, long offset, int bufferIndex, long userData) {
        return prepare(UringAbi.OP_READ_FIXED, (byte) 0, fd, address, length, offset, userData, bufferIndex);
    }

    /** As {@link #read}, the file named by its index in the ring's registered files (IOSQE_FIXED_FILE). */
    public boolean readRegisteredFile(int fileIndex, long address, int length, long offset, long userData) {
        return prepare(UringAbi.OP_READ, UringAbi.SQE_FIXED_FILE, fileIndex, address, length, offset, userData, 0);
    }

    /** READ_FIXED from a registered file: no fd lookup and no page pinning per read. */
    public boolean readFixedRegisteredFile(int fileIndex, long address, int length, long offset, int bufferIndex,
            long userData) {
        return prepare(UringAbi.OP_READ_FIXED, UringAbi.SQE_FIXED_FILE, fileIndex, address, length, offset, userData,
                bufferIndex);
    }

    /**
     * Any of the four reads above with {@code rwFlags} in the SQE's rw_flags: the RWF_* flags preadv2(2) takes (e.g.
     * RWF_DONTCACHE), applied by the kernel to this one read.
     */
    public boolean read(boolean fixedBuffer, boolean registeredFile, int fdOrIndex, long address, int length,
            long offset, int bufferIndex, int rwFlags, long userData) {
        return prepare(fixedBuffer ? UringAbi.OP_READ_FIXED : UringAbi.OP_READ,
                registeredFile ? UringAbi.SQE_FIXED_FILE : 0, (short) 0, fdOrIndex, address, length, offset, rwFlags,
                userData, fixedBuffer ? bufferIndex : 0);
    }

    /** Queues a write of {@code length} bytes from {@code address} at file {@code offset}. */
    public boolean write(int fd, long address, int length, long offset, long userData) {
        return prepare(UringAbi.OP_WRITE, (byte) 0, fd, address, length, offset, userData, 0);
    }

    /** WRITE_FIXED from registered buffer {@code bufferIndex}. */
    public boolean writeFixed(int fd, long address, int length, long offset, int bufferIndex, long userData) {
        return prepare(UringAbi.OP_WRITE_FIXED, (byte) 0, fd, address, length, offset, userData, bufferIndex);
    }

    /**
     * SEND of {@code length} bytes at {@code address} on a socket (IORING_OP_SEND, Linux 5.6), the socket named by its
     * descriptor or, with {@code registeredFile}, by its index in the ring's registered files.
     */
    public boolean send(int fdOrIndex, boolean registeredFile, long address, int length, int msgFlags, long userData) {
        return prepare(UringAbi.OP_SEND, registeredFile ? UringAbi.SQE_FIXED_FILE : 0, (short) 0, fdOrIndex, address,
                length, 0L, msgFlags, userData, 0);
    }

    /**
     * SEND_ZC (Linux 6.0) from registered buffer {@code bufferIndex} (IORING_RECVSEND_FIXED_BUF): the socket takes the
     * buffer's already pinned pages. Two completions come: the send's (with IORING_CQE_F_MORE when a notification
     * follows) and the notification (IORING_CQE_F_NOTIF) once the kernel has let go of the pages; only then may the
     * buffer be written again.
     */
    public boolean sendZeroCopyFixed(int fdOrIndex, boolean registeredFile, long address, int length, int msgFlags,
            int bufferIndex, long userData) {
        return prepare(UringAbi.OP_SEND_ZC, registeredFile ? UringAbi.SQE_FIXED_FILE : 0, UringAbi.RECVSEND_FIXED_BUF,
                fdOrIndex, address, length, 0L, msgFlags, userData, bufferIndex);
    }

    private boolean prepare(byte opcode, byte flags, int fd, long address, int length, long offset, long userData,
            int bufferIndex) {
        return prepare(opcode, flags, (short) 0, fd, address, length, offset, 0, userData, bufferIndex);
    }

    private boolean prepare(byte opcode, byte flags, short ioprio, int fd, long address, int length, long offset,
            int opFlags, long userData, int bufferIndex) {
        if (!hasRoom(1)) {
            return false;
        }
        int sqe = (tail & mask) * UringAbi.SQE_BYTES;
        sqes.put(sqe + UringAbi.SQE_OPCODE, opcode);
        sqes.put(sqe + UringAbi.SQE_FLAGS, flags);
        sqes.putShort(sqe + UringAbi.SQE_IOPRIO, ioprio);
        sqes.putInt(sqe + UringAbi.SQE_FD, fd);
        sqes.putLong(sqe + UringAbi.SQE_OFF, offset);
        sqes.putLong(sqe + UringAbi.SQE_ADDR, address);
        sqes.putInt(sqe + UringAbi.SQE_LEN, length);
        sqes.putInt(sqe + UringAbi.SQE_RW_FLAGS, opFlags);
        sqes.putLong(sqe + UringAbi.SQE_USER_DATA, userData);
        sqes.putShort(sqe + UringAbi.SQE_BUF_INDEX, (short) bufferIndex);
        sqes.putShort(sqe + UringAbi.SQE_PERSONALITY, (short) 0);
        sqes.putInt(sqe + UringAbi.SQE_SPLICE_FD_IN, 0);
        sqes.putLong(sqe + UringAbi.SQE_ADDR3, 0L);
        sqes.putLong(sqe + UringAbi.SQE_PAD, 0L);
        tail++;
        return true;
    }

    /** Makes every entry written so far visible to the kernel (release store of the tail). */
    void publish() {
        INT.setRelease(ring, tailOffset, tail);
    }

    /** The tail as written so far (published or not). */
    int tail() {
        return tail;
    }

    /**
     * Whether the SQ thread has gone to sleep and needs an io_uring_enter to wake it. The full fence orders the tail's
     * store before the flag's load, as the kernel orders its flag store before re-reading the tail: either it sees
     * the new entries, or this sees the flag.
     */
    boolean needsWakeup() {
        VarHandle.fullFence();
        return ((int) INT.getAcquire(ring, flagsOffset) & UringAbi.SQ_NEED_WAKEUP) != 0;
    }
}
