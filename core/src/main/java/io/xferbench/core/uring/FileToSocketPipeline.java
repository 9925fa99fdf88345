package io.xferbench.core.uring;

import io.netty.channel.uring.IoUringIoEvent;
import io.xferbench.nativeio.NativeException;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One file → socket transfer driven through io_uring, run entirely on one Netty io_uring event loop: every slot
 * (a buffer) reads its chunk with IORING_OP_READ at a 64-bit offset, and the chunks that are ready go to the socket
 * in file order as one IORING_OP_SENDMSG (or SENDMSG_ZC) with an iovec per chunk. All reads are in flight at once;
 * the loop submits whatever it queued with one io_uring_enter, so a batch of {@code depth} chunks costs about two
 * enters instead of read+write's two syscalls per chunk.
 *
 * <p>Ordering: one SENDMSG in flight at a time (two on one stream socket may interleave); chunks that become ready
 * meanwhile go in the next. MSG_WAITALL makes the kernel finish a short send itself, so a short completion means
 * the socket failed part way; the rest is sent again and fails there.
 *
 * <p>A slot's buffer is reused only when the kernel is done with it: after its send completed and, for SENDMSG_ZC,
 * after the notification CQE that releases the pages of that batch. The transfer completes (or fails) only when no operation
 * is in flight, so the caller may free or reuse the buffers and close the file afterwards.
 */
final class FileToSocketPipeline extends UringTransfer {
    private final UringSlots slots;
    private final int fileFd;
    private final int socketFd;
    private final boolean zeroCopy;
    private final long length;
    private final long end;
    private final ArrayDeque<UringSlots.Slot> sendOrder = new ArrayDeque<>();
    private final SendBatch batch;
    private final Map<Short, List<UringSlots.Slot>> awaitingRelease = new HashMap<>();
    private long nextRead;
    private long sent;
    private boolean sendInFlight;
    private short nextBatchId;

    FileToSocketPipeline(UringSlots slots, int fileFd, int socketFd, boolean zeroCopy, long position, long length) {
        this.slots = slots;
        this.batch = slots.sendBatch();
        this.fileFd = fileFd;
        this.socketFd = socketFd;
        this.zeroCopy = zeroCopy;
        this.nextRead = position;
        this.length = length;
        this.end = position + length;
    }

    @Override
    void start() {
        for (UringSlots.Slot slot : slots.all()) {
            if (nextRead >= end) {
                break;
            }
            readNextChunk(slot);
        }
    }

    @Override
    void completed(IoUringIoEvent event) {
        switch (event.opcode()) {
            case UringOps.OP_READ -> onRead(slots.get((int) event.userData()), event.res());
            case UringOps.OP_SENDMSG, UringOps.OP_SENDMSG_ZC -> onSend(event);
            default -> fail(new IOException("unexpected io_uring completion for opcode " + event.opcode()));
        }
    }

    @Override
    boolean finished() {
        return sent == length;
    }

    @Override
    String what() {
        return "io_uring transfer";
    }

    private void onRead(UringSlots.Slot slot, int res) {
        if (res < 0) {
            fail(new NativeException("io_uring read at file offset " + slot.fileOffsetOfFill(), -res));
        } else if (res == 0) {
            fail(new EOFException("file ended at offset " + slot.fileOffsetOfFill() + " before " + slot.fileOffsetOfSendEnd()
                    + ": truncated while being sent"));
        } else if (slot.filled(res)) {
            trySend();
        } else if (!failed()) {
            submitRead(slot); // a short read: the rest of the chunk
        }
    }

    private void onSend(IoUringIoEvent event) {
        int res = event.res();
        short batchId = (short) event.userData();
        if ((event.flags() & UringOps.CQE_F_NOTIF) != 0) {
            for (UringSlots.Slot slot : awaitingRelease.remove(batchId)) {
                slot.released();
                recycleIfDone(slot);
            }
            return;
        }
        sendInFlight = false;
        if ((event.flags() & UringOps.CQE_F_MORE) != 0) {
            // SENDMSG_ZC: the pages are the socket's until the notification for this batch.
            List<UringSlots.Slot> held = List.copyOf(batch.slots());
            held.forEach(UringSlots.Slot::awaitNotification);
            awaitingRelease.put(batchId, held);
        }
        if (res < 0) {
            fail(new NativeException("io_uring " + (zeroCopy ? "sendmsg_zc" : "sendmsg") + " to the socket", -res));
            return;
        }
        // MSG_WAITALL: short only when the socket failed part way; the rest is sent again (and fails there).
        sent += res;
        int left = res;
        for (UringSlots.Slot slot : batch.slots()) {
            int n = Math.min(left, slot.sendLength());
            slot.sent(n);
            left -= n;
        }
        while (!sendOrder.isEmpty() && sendOrder.peekFirst().fullySent()) {
            UringSlots.Slot finished = sendOrder.pollFirst();
            finished.retire();
            recycleIfDone(finished);
        }
        trySend();
    }

    /** A retired slot whose pages the kernel released takes the next chunk of the file. */
    private void recycleIfDone(UringSlots.Slot slot) {
        if (slot.reusable() && !failed() && nextRead < end) {
            readNextChunk(slot);
        }
    }

    private void readNextChunk(UringSlots.Slot slot) {
        long n = slot.assign(nextRead, end);
        nextRead += n;
        sendOrder.addLast(slot);
        submitRead(slot);
    }

    private void submitRead(UringSlots.Slot slot) {
        submit(UringOps.read(fileFd, slot.fileOffsetOfFill(), slot.fillAddress(), slot.fillLength(), slot.index()));
    }

    /** Sends every ready chunk at the head of the file order with one SENDMSG, unless one is in flight. */
    private void trySend() {
        if (sendInFlight || failed()) {
            return;
        }
        batch.clear();
        for (UringSlots.Slot slot : sendOrder) {
            if (!slot.readyToSend() || batch.isFull()) {
                break;
            }
            batch.add(slot);
        }
        if (batch.isEmpty()) {
            return;
        }
        batch.slots().forEach(UringSlots.Slot::sending);
        nextBatchId = (short) ((nextBatchId + 1) & Short.MAX_VALUE);
        submit(UringOps.sendmsg(socketFd, batch.msghdrAddress(), zeroCopy, nextBatchId));
        sendInFlight = true;
    }
}
