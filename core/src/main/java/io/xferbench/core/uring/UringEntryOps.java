package io.xferbench.core.uring;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.uring.IoUringIoEvent;
import io.netty.channel.uring.IoUringIoHandle;
import io.netty.channel.uring.IoUringIoOps;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.EntryStat;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.RegularFiles;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;

/**
 * Opens and stats entries of a directory with io_uring's {@code OPENAT} and {@code STATX} on the ring of one event
 * loop of Netty's io_uring transport, so a server's loop asks the kernel instead of calling open(2) or statx(2) itself
 * or handing the call to a pool of threads. The kernel first tries the lookup on cached dentries only, inline, during
 * the loop's {@code io_uring_enter}; one that would block goes to an io-wq worker thread of the ring (capped as every
 * ring here is), and the loop serves other connections meanwhile. Opens use {@link RegularFiles#FLAGS}, so the
 * descriptor is what an open on a thread would have given ({@link RegularFiles#adopt} then checks it); stats describe
 * a symlink rather than follow it ({@link EntryStat#FLAGS}).
 *
 * <p>One per event loop, used only on that loop. Each call in flight holds a slot whose native buffers keep the name
 * (and the statx) until the completion; with every slot taken, a call says no and the caller goes some other way.
 */
public final class UringEntryOps implements IoUringIoHandle {
    static final byte OP_OPENAT = 18;
    static final byte OP_STATX = 21;
    /** The longest name a slot holds, with its NUL: NAME_MAX + 1. */
    static final int NAME_BYTES = 256;
    private static final int SLOT_BYTES = NAME_BYTES + EntryStat.BYTES;

    /** What a stat's caller gets: 0 and the entry's statx, or a negated errno and null. */
    @FunctionalInterface
    public interface StatDone {
        void stated(int res, EntryStat stat);
    }

    /** A slot's completion: the CQE's result, and the slot's statx buffer. */
    @FunctionalInterface
    private interface Completion {
        void completed(int res, ByteBuffer statx);
    }

    private final ByteBuffer buffers;
    private final long buffersAddress;
    private final Completion[] waiting;
    private final int[] free;
    private int freeCount;
    private IoRegistration registration;
    private long submitted;

    private UringEntryOps(int slots) {
        if (slots < 1 || slots > Short.MAX_VALUE) {
            throw new IllegalArgumentException("slots " + slots + " not in [1, " + Short.MAX_VALUE + "]");
        }
        this.buffers = AlignedBuffers.allocate(slots * SLOT_BYTES, AlignedBuffers.pageSize());
        this.buffersAddress = AlignedBuffers.address(buffers);
        this.waiting = new Completion[slots];
        this.free = new int[slots];
        for (int i = 0; i < slots; i++) {
            free[i] = slots - 1 - i;
        }
        this.freeCount = slots;
    }

    /**
     * Ops registered with {@code loop}, with {@code slots} calls in flight at most; waits for the registration, so not
     * to be called on the loop.
     */
    public static UringEntryOps register(IoEventLoop loop, int slots) {
        UringEntryOps ops = new UringEntryOps(slots);
        ops.registration = loop.register(ops).syncUninterruptibly().getNow();
        return ops;
    }

    /**
     * On the loop: submits an open of the entry {@code name} of the directory open as {@code directoryFd}; {@code done}
     * gets, on the loop, the new descriptor (the caller's to close) or a negated errno. Returns false, and submits
     * nothing, when the name does not fit a slot, no slot is free or the ring is gone.
     */
    public boolean open(int directoryFd, String name, IntConsumer done) {
        int slot = take(name);
        if (slot < 0) {
            return false;
        }
        // sqe->fd the directory, sqe->addr the path, sqe->len the mode, sqe->open_flags the flags.
        return submit(slot, new IoUringIoOps(OP_OPENAT, (byte) 0, (short) 0, directoryFd, 0L, nameAddress(slot), 0,
                RegularFiles.FLAGS, (long) slot, (short) 0, (short) 0, 0, 0L), (res, statx) -> done.accept(res));
    }

    /**
     * On the loop: submits a statx of the entry {@code name} of the directory open as {@code directoryFd}, a symlink
     * not followed; {@code done} gets, on the loop, what it says. Returns false as {@link #open} does.
     */
    public boolean stat(int directoryFd, String name, StatDone done) {
        int slot = take(name);
        if (slot < 0) {
            return false;
        }
        // sqe->fd the directory, sqe->addr the path, sqe->len the mask, sqe->off the statx buffer, sqe->statx_flags.
        return submit(slot, new IoUringIoOps(OP_STATX, (byte) 0, (short) 0, directoryFd, nameAddress(slot) + NAME_BYTES,
                nameAddress(slot), EntryStat.MASK, EntryStat.FLAGS, (long) slot, (short) 0, (short) 0, 0, 0L),
                (res, statx) -> done.stated(res, res == 0 ? EntryStat.parse(statx) : null));
    }

    /** Ends the registration with a loop that goes on running; calls still in flight are then told they failed. */
    public void deregister() {
        registration.cancel();
    }

    /** Opens and stats submitted so far. */
    public long submitted() {
        return submitted;
    }

    /** A free slot holding {@code name} with its NUL, or -1. */
    private int take(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length >= NAME_BYTES || freeCount == 0 || registration == null || !registration.isValid()) {
            return -1;
        }
        int slot = free[--freeCount];
        int at = slot * SLOT_BYTES;
        buffers.put(at, bytes);
        buffers.put(at + bytes.length, (byte) 0);
        return slot;
    }

    private long nameAddress(int slot) {
        return buffersAddress + (long) slot * SLOT_BYTES;
    }

    private boolean submit(int slot, IoUringIoOps op, Completion completion) {
        if (registration.submit(op) == 0) {
            free[freeCount++] = slot;
            return false;
        }
        waiting[slot] = completion;
        submitted++;
        return true;
    }

    @Override
    public void handle(IoRegistration registration, IoEvent ioEvent) {
        IoUringIoEvent event = (IoUringIoEvent) ioEvent;
        int slot = (int) event.userData();
        Completion done = waiting[slot];
        waiting[slot] = null;
        int res = event.res();
        if (done == null) {
            // Nobody waits (the loop closed the ops meanwhile): an opened descriptor is closed here.
            if (event.opcode() == OP_OPENAT && res >= 0) {
                closeQuietly(res);
            }
            free[freeCount++] = slot;
            return;
        }
        try {
            done.completed(res, buffers.slice(slot * SLOT_BYTES + NAME_BYTES, EntryStat.BYTES));
        } finally {
            free[freeCount++] = slot;
        }
    }

    /**
     * The loop is shutting down: calls still in flight are told they failed. A descriptor the kernel opens after this
     * can no longer be delivered; the loops stop only after the server's connections closed, so none should be left.
     */
    @Override
    public void close() {
        for (int slot = 0; slot < waiting.length; slot++) {
            Completion done = waiting[slot];
            if (done != null) {
                waiting[slot] = null;
                done.completed(-Errno.ECANCELED, null);
            }
        }
    }

    private static void closeQuietly(int fd) {
        try {
            Fds.close(fd);
        } catch (NativeException ignored) {
            // A descriptor nobody waits for any more: gone either way.
        }
    }
}
