package io.xferbench.core.uring;

import io.xferbench.nativeio.AlignedBuffers;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The buffers a transfer keeps in flight, each with the state of the chunk it holds. Owned by one sender (one
 * connection) and reused across its transfers; only the event loop running a transfer touches the states.
 */
final class UringSlots {
    private final Slot[] slots;
    private final int alignment;
    private final SendBatch sendBatch;

    /**
     * @param alignment file offset and length granularity of the reads: 1 for buffered I/O, the O_DIRECT block
     *                  otherwise (the buffers are then aligned to it too)
     */
    UringSlots(int depth, int chunkSize, int alignment) {
        if (depth < 1 || depth > Short.MAX_VALUE) {
            throw new IllegalArgumentException("queue depth " + depth + " is not in [1, " + Short.MAX_VALUE + "]");
        }
        this.alignment = alignment;
        int chunk = Math.max(alignment, chunkSize / alignment * alignment);
        int bufferAlignment = Math.max(alignment, AlignedBuffers.pageSize());
        this.slots = IntStream.range(0, depth)
                .mapToObj(i -> new Slot((short) i, AlignedBuffers.allocate(chunk, bufferAlignment)))
                .toArray(Slot[]::new);
        this.sendBatch = new SendBatch(depth);
    }

    /** The msghdr and iovecs the sends use: one batch in flight at a time. */
    SendBatch sendBatch() {
        return sendBatch;
    }

    Slot get(int index) {
        return slots[index];
    }

    List<Slot> all() {
        return List.of(slots);
    }

    int alignment() {
        return alignment;
    }

    int depth() {
        return slots.length;
    }

    int chunkSize() {
        return slots[0].capacity;
    }

    long bytes() {
        return (long) slots.length * chunkSize();
    }

    private enum State { IDLE, READING, READY, SENDING, SENT, RETIRED }

    /** One buffer and the chunk of the file it holds: read into {@code [0, readLength)}, sent from {@code [sendFrom, sendTo)}. */
    final class Slot {
        private final short index;
        private final ByteBuffer buffer; // kept reachable: the kernel writes to its address
        private final long address;
        private final int capacity;
        private State state = State.IDLE;
        private long readOffset;
        private int readLength;
        private int filled;
        private int sendFrom;
        private int sendTo;
        private int sentBytes;
        private int pendingNotifications;

        private Slot(short index, ByteBuffer buffer) {
            this.index = index;
            this.buffer = buffer;
            this.address = AlignedBuffers.address(buffer);
            this.capacity = buffer.capacity();
        }

        short index() {
            return index;
        }

        /**
         * Takes the chunk of {@code [position, end)} that starts at {@code position}: read from the block boundary at
         * or before it, as many whole blocks as fit. Returns how many bytes of the file it will send.
         */
        long assign(long position, long end) {
            int skip = (int) (position % alignment);
            int n = (int) Math.min(end - position, capacity - skip);
            readOffset = position - skip;
            readLength = (skip + n + alignment - 1) / alignment * alignment;
            filled = 0;
            sendFrom = skip;
            sendTo = skip + n;
            sentBytes = 0;
            state = State.READING;
            return n;
        }

        long fileOffsetOfFill() {
            return readOffset + filled;
        }

        long fileOffsetOfSendEnd() {
            return readOffset + sendTo;
        }

        long fillAddress() {
            return address + filled;
        }

        int fillLength() {
            return readLength - filled;
        }

        /** @return whether the bytes to send are all there (an O_DIRECT read over the file's last block ends short) */
        boolean filled(int bytes) {
            filled += bytes;
            if (filled >= sendTo) {
                state = State.READY;
                return true;
            }
            return false;
        }

        boolean readyToSend() {
            return state == State.READY;
        }

        long sendAddress() {
            return address + sendFrom + sentBytes;
        }

        int sendLength() {
            return sendTo - sendFrom - sentBytes;
        }

        void sending() {
            state = State.SENDING;
        }

        void sent(int bytes) {
            sentBytes += bytes;
            state = sentBytes == sendTo - sendFrom ? State.SENT : State.READY;
        }

        boolean fullySent() {
            return state == State.SENT;
        }

        void retire() {
            state = State.RETIRED;
        }

        /** A SENDMSG_ZC completion said a notification will follow: the pages are still the kernel's until then. */
        void awaitNotification() {
            pendingNotifications++;
        }

        void released() {
            pendingNotifications--;
        }

        boolean reusable() {
            return state == State.RETIRED && pendingNotifications == 0;
        }

        /** Before a new transfer: whatever the last one left (it completed with nothing in flight). */
        void reset() {
            state = State.IDLE;
            pendingNotifications = 0;
        }
    }

    void reset() {
        for (Slot s : slots) {
            s.reset();
        }
    }
}
