package io.xferbench.core.uring;

import io.netty.channel.IoEventLoop;
import io.netty.channel.uring.IoUringIoEvent;
import io.xferbench.core.netty.IoUringReadLoop;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.NativeException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.LongUnaryOperator;

/**
 * Reads blocks of a file through io_uring with {@code depth} IORING_OP_READs in flight, on an event loop of Netty's
 * io_uring transport: the disk table's io_uring engine (fio's {@code ioengine=io_uring, iodepth=N} in Java). Each
 * completion hands its block to the sink and queues the next op, which {@link IoUringReadLoop}'s small submission
 * queue passes to the kernel at once (two at most per io_uring_enter), as fio does. Buffered reads of uncached
 * pages complete asynchronously through the page cache's wait queues (no io-wq thread); O_DIRECT reads are async
 * block I/O.
 *
 * <p>{@link #runInPlanOrder} is Glommio's read-ahead instead: op k always reads into buffer k mod depth, the sink takes
 * the blocks in plan order (a block that completed before its predecessors waits in its buffer), and the buffer the
 * sink just freed gets the read {@code depth} ops ahead. The consumer runs on the event loop thread, as Glommio's runs
 * on the thread that drives its ring: no hand-off between threads per block.
 */
public final class UringBlockReads extends UringTransfer {
    /** Receives each block on the event loop thread: in completion order, or in plan order for {@link #runInPlanOrder}. */
    @FunctionalInterface
    public interface BlockSink {
        void accept(long offset, ByteBuffer block, long latencyNanos);
    }

    private final int fd;
    private final int blockSize;
    private final LongUnaryOperator offsetOfOp;
    private final long ops;
    private final BlockSink sink;
    private final ByteBuffer[] buffers;
    private final long[] addresses;
    private final long[] offsets;
    private final int[] filled;
    private final long[] submitted;
    private final boolean planOrder;
    /** Per slot, plan order only: the latency of the block waiting there for its predecessors, or -1 while it reads. */
    private final long[] readyLatency;
    private long nextOp;
    private long completedOps;

    private UringBlockReads(int fd, int blockSize, int alignment, int depth, LongUnaryOperator offsetOfOp, long ops,
                            boolean planOrder, BlockSink sink) {
        this.fd = fd;
        this.planOrder = planOrder;
        this.blockSize = blockSize;
        this.offsetOfOp = offsetOfOp;
        this.ops = ops;
        this.sink = sink;
        int slots = (int) Math.min(depth, Math.max(1, ops));
        this.buffers = new ByteBuffer[slots];
        this.addresses = new long[slots];
        this.offsets = new long[slots];
        this.filled = new int[slots];
        this.submitted = new long[slots];
        this.readyLatency = new long[slots];
        for (int i = 0; i < slots; i++) {
            buffers[i] = AlignedBuffers.allocate(blockSize, Math.max(alignment, AlignedBuffers.pageSize()));
            addresses[i] = AlignedBuffers.address(buffers[i]);
        }
    }

    /**
     * Reads op 0 .. ops-1 at {@code offsetOfOp(op)}, {@code blockSize} bytes each, and returns when all completed.
     *
     * @param alignment buffer address alignment (the O_DIRECT block for a descriptor opened with O_DIRECT, else 1)
     */
    public static void run(int fd, int blockSize, int alignment, int depth, LongUnaryOperator offsetOfOp, long ops,
                           BlockSink sink) throws IOException {
        run(fd, blockSize, alignment, depth, offsetOfOp, ops, false, sink);
    }

    /**
     * As {@link #run}, but the sink gets op 0, 1, 2, ... in that order, each block's buffer then reading the op
     * {@code depth} ahead (Glommio's read-ahead); the latency passed is still the read's own, submit to completion.
     */
    public static void runInPlanOrder(int fd, int blockSize, int alignment, int depth, LongUnaryOperator offsetOfOp,
                                      long ops, BlockSink sink) throws IOException {
        run(fd, blockSize, alignment, depth, offsetOfOp, ops, true, sink);
    }

    private static void run(int fd, int blockSize, int alignment, int depth, LongUnaryOperator offsetOfOp, long ops,
                            boolean planOrder, BlockSink sink) throws IOException {
        if (depth < 1 || depth > Short.MAX_VALUE) {
            throw new IllegalArgumentException("queue depth " + depth + " is not in [1, " + Short.MAX_VALUE + "]");
        }
        if (ops == 0) {
            return;
        }
        new UringBlockReads(fd, blockSize, alignment, depth, offsetOfOp, ops, planOrder, sink).run();
    }

    @Override
    void start() {
        for (int slot = 0; slot < buffers.length && nextOp < ops; slot++) {
            submitNext(slot);
        }
    }

    private void submitNext(int slot) {
        offsets[slot] = offsetOfOp.applyAsLong(nextOp++);
        filled[slot] = 0;
        readyLatency[slot] = -1;
        submitted[slot] = System.nanoTime();
        submitRead(slot);
    }

    private void submitRead(int slot) {
        long address = addresses[slot] + filled[slot];
        submit(UringOps.read(fd, offsets[slot] + filled[slot], address, blockSize - filled[slot], (short) slot));
    }

    @Override
    void completed(IoUringIoEvent event) {
        int slot = (int) event.userData();
        int res = event.res();
        if (res < 0) {
            fail(new NativeException("io_uring read at file offset " + (offsets[slot] + filled[slot]), -res));
        } else if (res == 0) {
            fail(new EOFException("file ended at offset " + (offsets[slot] + filled[slot]) + " inside a block"));
        } else if ((filled[slot] += res) < blockSize) {
            if (!failed()) {
                submitRead(slot); // a short read: the rest of the block
            }
        } else if (!planOrder) {
            deliver(slot, System.nanoTime() - submitted[slot]);
        } else {
            readyLatency[slot] = System.nanoTime() - submitted[slot];
            // Op completedOps is the next in plan order, in slot completedOps mod depth; deliver while it is there.
            for (int head = headSlot(); !failed() && completedOps < ops && readyLatency[head] >= 0; head = headSlot()) {
                deliver(head, readyLatency[head]);
            }
        }
    }

    private int headSlot() {
        return (int) (completedOps % buffers.length);
    }

    /** Hands the slot's block to the sink, then gives the slot the next op: in plan order, the one depth ahead. */
    private void deliver(int slot, long latencyNanos) {
        sink.accept(offsets[slot], buffers[slot].clear(), latencyNanos);
        completedOps++;
        if (!failed() && nextOp < ops) {
            submitNext(slot);
        }
    }

    /** Its own loop, whose small submission queue hands reads to the kernel as they come (see IoUringReadLoop). */
    @Override
    IoEventLoop loop() {
        return IoUringReadLoop.loop();
    }

    @Override
    boolean finished() {
        return completedOps == ops;
    }

    @Override
    String what() {
        return "io_uring reads";
    }
}
