package io.xferbench.nativeio.uring;

import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.NativeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.IntToLongFunction;

/**
 * Reads a plan of equal-sized blocks through one ring with a fixed number in flight: one buffer per request slot,
 * each request queued into a free slot, the queue handed to the kernel every {@code batch} requests (or sooner when
 * no slot or op is left), completions reaped as they come. The read is a plain READ, or READ_FIXED from the ring's
 * registered buffers, on a plain descriptor or a registered file. When a read fails, the requests still in flight are
 * waited for before the failure is thrown: none may write into a buffer the caller frees or reuses.
 */
public final class RingReads {
    /**
     * Receives each completed block: {@code data} holds its bytes from position 0 to the count read; {@code nanos} is
     * the time from queueing the read to reaping its completion.
     */
    @FunctionalInterface
    public interface Sink {
        void block(int op, long offset, ByteBuffer data, long nanos) throws IOException;
    }

    /** What the requests read: a plain descriptor, or the index of a file registered with the ring. */
    public record Source(int fdOrIndex, boolean registered, String shown) {
        public static Source plain(int fd, String shown) {
            return new Source(fd, false, shown);
        }

        public static Source registered(int index, String shown) {
            return new Source(index, true, shown);
        }
    }

    private final IoUring ring;
    private final Source source;
    private final List<ByteBuffer> slots;
    private final long[] addresses;
    private final boolean fixedBuffers;
    private final int batch;
    private final int rwFlags;
    private final int[] slotOp;
    private final long[] slotOffset;
    private final long[] slotQueuedAt;
    private final int[] freeSlots;
    private int free;
    private int inFlight;
    private IOException failure;

    /**
     * @param slots        one buffer per request in flight (depth = their count); with {@code fixedBuffers} they must
     *                     be the ring's registered buffers, slot i = registered buffer i
     * @param batch        requests queued before the queue is handed to the kernel (1 = each one at once)
     */
    public RingReads(IoUring ring, Source source, List<ByteBuffer> slots, boolean fixedBuffers, int batch) {
        this(ring, source, slots, fixedBuffers, batch, 0);
    }

    /** As above, each read carrying {@code rwFlags} (RWF_* flags as preadv2(2) takes them) in its SQE. */
    public RingReads(IoUring ring, Source source, List<ByteBuffer> slots, boolean fixedBuffers, int batch,
            int rwFlags) {
        if (slots.isEmpty() || slots.size() > ring.sq().entries()) {
            throw new IllegalArgumentException(slots.size() + " slots for a ring of " + ring.sq().entries() + " entries");
        }
        if (batch < 1) {
            throw new IllegalArgumentException("batch " + batch + " < 1");
        }
        this.ring = ring;
        this.source = source;
        this.slots = List.copyOf(slots);
        this.fixedBuffers = fixedBuffers;
        this.batch = batch;
        this.rwFlags = rwFlags;
        this.addresses = new long[slots.size()];
        for (int i = 0; i < addresses.length; i++) {
            addresses[i] = AlignedBuffers.address(slots.get(i));
        }
        this.slotOp = new int[slots.size()];
        this.slotOffset = new long[slots.size()];
        this.slotQueuedAt = new long[slots.size()];
        this.freeSlots = new int[slots.size()];
    }

    /**
     * Reads ops {@code 0 .. ops-1}, op k being {@code length} bytes at {@code offsets(k)}, handing each to
     * {@code sink} as it completes (in completion order). A short count (end of file) is handed over as it is.
     */
    public void run(int ops, IntToLongFunction offsets, int length, Sink sink) throws IOException {
        for (ByteBuffer slot : slots) {
            if (slot.capacity() < length) {
                throw new IllegalArgumentException("a " + slot.capacity() + "-byte slot for " + length + "-byte reads");
            }
        }
        free = 0;
        for (int i = slots.size() - 1; i >= 0; i--) {
            freeSlots[free++] = i;
        }
        inFlight = 0;
        failure = null;
        CompletionQueue.Handler handler = (userData, result, flags) -> complete((int) userData, result, length, sink);
        int next = 0;
        try {
            while (next < ops || inFlight > 0) {
                int queued = 0;
                while (queued < batch && free > 0 && next < ops) {
                    queue(freeSlots[--free], next, offsets.applyAsLong(next), length);
                    next++;
                    queued++;
                }
                boolean mustWait = free == 0 || next == ops;
                ring.submitAndWait(mustWait && inFlight > 0 ? 1 : 0);
                ring.cq().reap(handler);
                if (failure != null) {
                    throw failure;
                }
            }
        } catch (IOException | RuntimeException e) {
            drain();
            throw e;
        }
    }

    private void queue(int slot, int op, long offset, int length) throws NativeException {
        slotOp[slot] = op;
        slotOffset[slot] = offset;
        ring.awaitSubmissionRoom();
        SubmissionQueue sq = ring.sq();
        boolean queued = sq.read(fixedBuffers, source.registered(), source.fdOrIndex(), addresses[slot], length,
                offset, slot, rwFlags, slot);
        if (!queued) {
            throw new IllegalStateException("the SQ is full with " + inFlight + " reads in flight");
        }
        slotQueuedAt[slot] = System.nanoTime();
        inFlight++;
    }

    private void complete(int slot, int result, int length, Sink sink) throws IOException {
        inFlight--;
        freeSlots[free++] = slot;
        if (failure != null) {
            return;
        }
        if (result < 0) {
            failure = new NativeException("io_uring " + (fixedBuffers ? "READ_FIXED" : "READ") + "(" + source.shown()
                    + ", " + length + " bytes at offset " + slotOffset[slot] + ")", -result);
            return;
        }
        long nanos = System.nanoTime() - slotQueuedAt[slot];
        sink.block(slotOp[slot], slotOffset[slot], slots.get(slot).clear().limit(result), nanos);
    }

    /** Waits for every request still in flight, dropping their results. */
    private void drain() {
        CompletionQueue.Handler drop = (userData, result, flags) -> {
            inFlight--;
            freeSlots[free++] = (int) userData;
        };
        try {
            while (inFlight > 0) {
                ring.submitAndWait(1);
                ring.cq().reap(drop);
            }
        } catch (IOException | RuntimeException ignored) {
            // The ring itself failed: closing it is all that is left, and the caller's failure is the one to report.
        }
    }
}
