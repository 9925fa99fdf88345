package io.xferbench.core.uring;

import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.uring.CompletionQueue;
import io.xferbench.nativeio.uring.IoUring;
import io.xferbench.nativeio.uring.RegisteredBuffers;
import io.xferbench.nativeio.uring.SubmissionQueue;
import java.io.EOFException;
import java.io.IOException;

/**
 * One transfer on the suite's own ring: READ_FIXED from the registered file into the registered buffers, a chunk
 * per buffer and all buffers reading ahead, and the chunks sent in file order from the same buffers, one SEND (or
 * SEND_ZC with IORING_RECVSEND_FIXED_BUF) in flight at a time so the bytes leave in order. A buffer reads again once
 * its chunk was sent in full and, for SEND_ZC, once every notification of its sends came back: until then the
 * socket still holds its pages. When anything fails, every request in flight is waited for before the failure is
 * thrown, so none writes into or reads from a buffer after this returns.
 */
final class FixedSendPipeline {
    private static final long KIND_READ = 0;
    private static final long KIND_SEND = 1;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int MSG_WAITALL = 0x100;

    private final IoUring ring;
    private final RegisteredBuffers buffers;
    private final int fileIndex;
    private final int socketIndex;
    private final boolean zeroCopy;
    private final int capacity;
    private final int depth;
    private final long[] slotOffset;
    private final int[] slotLength;
    private final int[] slotFilled;
    private final int[] slotSent;
    private final int[] slotNotifications;
    private final boolean[] slotReady;
    private final int[] orderSlots;
    private final int[] freeSlots;
    private int free;
    private int inFlight;
    private boolean sending;
    private long chunks;
    private long nextRead;
    private long nextSend;
    private long position;
    private long end;
    private IOException failure;

    /** @param fileIndex, socketIndex the file's and the socket's indexes in the ring's registered files */
    FixedSendPipeline(IoUring ring, RegisteredBuffers buffers, int fileIndex, int socketIndex, boolean zeroCopy) {
        this.ring = ring;
        this.buffers = buffers;
        this.fileIndex = fileIndex;
        this.socketIndex = socketIndex;
        this.zeroCopy = zeroCopy;
        this.depth = buffers.count();
        this.capacity = buffers.buffer(0).capacity();
        this.slotOffset = new long[depth];
        this.slotLength = new int[depth];
        this.slotFilled = new int[depth];
        this.slotSent = new int[depth];
        this.slotNotifications = new int[depth];
        this.slotReady = new boolean[depth];
        this.orderSlots = new int[depth];
        this.freeSlots = new int[depth];
    }

    /** Sends {@code length} bytes of the file from {@code position}; returns once all are sent and no request is in flight. */
    void run(long position, long length) throws IOException {
        this.position = position;
        this.end = position + length;
        this.chunks = (length + capacity - 1) / capacity;
        nextRead = 0;
        nextSend = 0;
        inFlight = 0;
        sending = false;
        failure = null;
        free = 0;
        for (int i = depth - 1; i >= 0; i--) {
            freeSlots[free++] = i;
        }
        CompletionQueue.Handler handler = this::complete;
        while (inFlight > 0 || (failure == null && nextSend < chunks)) {
            if (failure == null) {
                queueReads();
                queueSend();
            }
            ring.submitAndWait(1);
            ring.cq().reap(handler);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void queueReads() throws NativeException {
        while (free > 0 && nextRead < chunks) {
            int slot = freeSlots[--free];
            long offset = position + nextRead * capacity;
            slotOffset[slot] = offset;
            slotLength[slot] = (int) Math.min(capacity, end - offset);
            slotFilled[slot] = 0;
            slotSent[slot] = 0;
            slotReady[slot] = false;
            orderSlots[(int) (nextRead % depth)] = slot;
            nextRead++;
            queueRead(slot);
        }
    }

    private void queueRead(int slot) throws NativeException {
        ring.awaitSubmissionRoom();
        int filled = slotFilled[slot];
        ring.sq().readFixedRegisteredFile(fileIndex, buffers.address(slot) + filled, slotLength[slot] - filled,
                slotOffset[slot] + filled, slot, userData(KIND_READ, slot));
        inFlight++;
    }

    /** The next chunk in file order goes out once it is read, unless a send is in flight. */
    private void queueSend() throws NativeException {
        if (sending || nextSend >= chunks) {
            return;
        }
        int slot = orderSlots[(int) (nextSend % depth)];
        if (!slotReady[slot]) {
            return;
        }
        ring.awaitSubmissionRoom();
        SubmissionQueue sq = ring.sq();
        long address = buffers.address(slot) + slotSent[slot];
        int length = slotLength[slot] - slotSent[slot];
        int flags = MSG_WAITALL | MSG_NOSIGNAL;
        if (zeroCopy) {
            sq.sendZeroCopyFixed(socketIndex, true, address, length, flags, slot, userData(KIND_SEND, slot));
        } else {
            sq.send(socketIndex, true, address, length, flags, userData(KIND_SEND, slot));
        }
        inFlight++;
        sending = true;
    }

    private void complete(long userData, int result, int flags) {
        int slot = (int) userData;
        if (userData >>> 32 == KIND_READ) {
            inFlight--;
            completeRead(slot, result);
        } else if (CompletionQueue.notification(flags)) {
            inFlight--;
            slotNotifications[slot]--;
            recycleIfDone(slot);
        } else {
            if (CompletionQueue.more(flags)) {
                slotNotifications[slot]++;
            } else {
                inFlight--;
            }
            sending = false;
            completeSend(slot, result);
        }
    }

    private void completeRead(int slot, int result) {
        if (failure != null) {
            return;
        }
        if (result < 0) {
            failure = new NativeException("io_uring READ_FIXED(" + slotLength[slot] + " bytes at offset "
                    + (slotOffset[slot] + slotFilled[slot]) + ")", -result);
        } else if (result == 0) {
            failure = new EOFException("the file ends at " + (slotOffset[slot] + slotFilled[slot])
                    + ", before the range sent (truncated under the transfer)");
        } else {
            slotFilled[slot] += result;
            if (slotFilled[slot] < slotLength[slot]) {
                requeue(slot);
            } else {
                slotReady[slot] = true;
            }
        }
    }

    private void requeue(int slot) {
        try {
            queueRead(slot);
        } catch (NativeException e) {
            failure = e;
        }
    }

    private void completeSend(int slot, int result) {
        if (failure != null) {
            return;
        }
        if (result < 0) {
            failure = new NativeException("io_uring " + (zeroCopy ? "SEND_ZC" : "SEND") + "(" + (slotLength[slot] - slotSent[slot])
                    + " bytes of the chunk at offset " + slotOffset[slot] + ")", -result);
            return;
        }
        // MSG_WAITALL: short only when the socket failed part way; the rest goes again and reports why.
        slotSent[slot] += result;
        if (slotSent[slot] == slotLength[slot]) {
            slotReady[slot] = false;
            nextSend++;
            recycleIfDone(slot);
        }
    }

    private void recycleIfDone(int slot) {
        boolean sent = !slotReady[slot] && slotSent[slot] == slotLength[slot];
        if (sent && slotNotifications[slot] == 0) {
            slotSent[slot] = -1;
            freeSlots[free++] = slot;
        }
    }

    private static long userData(long kind, int slot) {
        return kind << 32 | slot;
    }
}
