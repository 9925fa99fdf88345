package io.xferbench.core.uring;

import io.netty.channel.uring.IoUringIoOps;

/**
 * The SQEs this engine submits, built with Netty's public {@link IoUringIoOps} constructor (its own factories are
 * package-private). Offsets are 64-bit: nothing here is cut at 2 GiB as Netty 4.2.18's FileRegion is. Numbers are
 * the kernel's ABI ({@code include/uapi/linux/io_uring.h}); {@code data} comes back in the completion and names the
 * buffer slot the operation belongs to.
 */
final class UringOps {
    static final byte OP_SENDMSG = 9;
    static final byte OP_READ = 22;
    static final byte OP_WRITE = 23;
    static final byte OP_RECV = 27;
    static final byte OP_SPLICE = 30;
    static final byte OP_SENDMSG_ZC = 48;

    /** SQE flag: the next SQE starts only after this one completed in full (a short or failed one cancels it). */
    static final byte IOSQE_IO_LINK = 1 << 2;

    /** A linked SQE's result when the one before it was short or failed. */
    static final int ECANCELED = 125;
    /** A SPLICE_F_NONBLOCK splice's result when its pipe was empty. */
    static final int EAGAIN = 11;

    /** CQE flags: another completion of the same request follows; this one is SENDMSG_ZC's "buffer released" notice. */
    static final int CQE_F_MORE = 1 << 1;
    static final int CQE_F_NOTIF = 1 << 3;

    /** MSG_WAITALL makes the kernel retry a short send itself, so a completion short of the length means failure. */
    static final int MSG_WAITALL = 0x100;
    static final int MSG_NOSIGNAL = 0x4000;

    private UringOps() {
    }

    /** pread at a 64-bit {@code offset} into {@code address}. */
    static IoUringIoOps read(int fd, long offset, long address, int length, short slot) {
        return op(OP_READ, (byte) 0, fd, offset, address, length, 0, slot);
    }

    /** pwrite at a 64-bit {@code offset} from {@code address}. */
    static IoUringIoOps write(int fd, long offset, long address, int length, short slot) {
        return op(OP_WRITE, (byte) 0, fd, offset, address, length, 0, slot);
    }

    /** sendmsg(2) of every byte the msghdr's iovecs name (MSG_WAITALL), optionally zero-copy. */
    static IoUringIoOps sendmsg(int socket, long msghdr, boolean zeroCopy, short batch) {
        return op(zeroCopy ? OP_SENDMSG_ZC : OP_SENDMSG, (byte) 0, socket, 0, msghdr, 1, MSG_WAITALL | MSG_NOSIGNAL, batch);
    }

    /**
     * recv(2) of exactly {@code length} bytes (MSG_WAITALL: the kernel re-arms a partial receive itself; a shorter
     * completion means end of stream, or a kernel without that, so the caller asks again for the rest).
     */
    static IoUringIoOps recv(int socket, long address, int length, short slot) {
        return op(OP_RECV, (byte) 0, socket, 0, address, length, MSG_WAITALL, slot);
    }

    /**
     * splice(2) of up to {@code length} bytes from {@code in} at {@code offsetIn} (-1: a pipe, no offset) to
     * {@code out} with splice(2)'s {@code flags}; {@code link} makes the next SQE wait for this one
     * ({@link #IOSQE_IO_LINK}).
     */
    static IoUringIoOps splice(int in, long offsetIn, int out, int length, boolean link, int flags, short data) {
        // sqe->off is the output offset (-1: none), sqe->addr the input offset, sqe->splice_fd_in the input fd.
        return new IoUringIoOps(OP_SPLICE, link ? IOSQE_IO_LINK : 0, (short) 0, out, -1L, offsetIn, length, flags,
                (long) data, (short) 0, (short) 0, in, 0L);
    }


    private static IoUringIoOps op(byte opcode, byte flags, int fd, long offset, long address, int length, int opFlags, short slot) {
        return new IoUringIoOps(opcode, flags, (short) 0, fd, offset, address, length, opFlags, (long) slot, (short) 0, (short) 0, 0, 0L);
    }
}
