package io.xferbench.core.uring;

import io.netty.channel.uring.IoUringIoEvent;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.Splice;
import java.io.EOFException;
import java.io.IOException;

/**
 * One file → socket transfer as IORING_OP_SPLICE pairs through a pipe: per round, SPLICE file → pipe of up to the
 * pipe's capacity at a 64-bit file offset, linked (IOSQE_IO_LINK) to SPLICE pipe → socket of the same length, so a
 * round costs one submission as in the liburing shape. The kernel runs every IORING_OP_SPLICE on an io-wq worker.
 *
 * <p>Correctness does not depend on the link: Netty submits early when its ring fills, which can cut a pair, and
 * then the socket splice may run before the file splice. It carries SPLICE_F_NONBLOCK, so on a still empty pipe it
 * ends at once with -EAGAIN instead of holding a worker (with workers capped, the file splice it waits for could be
 * queued behind it for ever); the socket itself stays blocking. Bytes reach the socket in file order because there
 * is one pipe, one file splice in flight at a time and at most one socket splice in flight. What each splice moved
 * is taken from its result: a short file splice cancels a linked socket splice (-ECANCELED), an unlinked one moves
 * what is there or nothing; whatever the pipe holds when both completed is drained by another socket splice before
 * the next round.
 */
final class LinkedSplicePipeline extends UringTransfer {
    private static final short FILE_TO_PIPE = 1;
    private static final short PIPE_TO_SOCKET = 2;

    private final int fileFd;
    private final int pipeRead;
    private final int pipeWrite;
    private final int pipeSize;
    private final int socketFd;
    private final long length;
    private final long end;
    private final boolean link;
    private long nextFileOffset;
    private long sent;
    private int inPipe;
    private boolean fileSpliceInFlight;
    private boolean socketSpliceInFlight;

    /** @param link IOSQE_IO_LINK on each file splice; false only in tests, to run every pair as if its link was cut */
    LinkedSplicePipeline(int fileFd, int pipeRead, int pipeWrite, int pipeSize, int socketFd, long position, long length,
                         boolean link) {
        this.link = link;
        this.fileFd = fileFd;
        this.pipeRead = pipeRead;
        this.pipeWrite = pipeWrite;
        this.pipeSize = pipeSize;
        this.socketFd = socketFd;
        this.nextFileOffset = position;
        this.length = length;
        this.end = position + length;
    }

    /** Whether the pipe is empty (every byte spliced in was spliced out), so it may be reused. */
    boolean pipeEmpty() {
        return inPipe == 0;
    }

    @Override
    void start() {
        next();
    }

    @Override
    void completed(IoUringIoEvent event) {
        switch ((short) event.userData()) {
            case FILE_TO_PIPE -> onFileSplice(event.res());
            case PIPE_TO_SOCKET -> onSocketSplice(event.res());
            default -> fail(new IOException("unexpected io_uring completion with data " + event.userData()));
        }
        next();
    }

    @Override
    boolean finished() {
        return sent == length;
    }

    @Override
    String what() {
        return "io_uring linked splice download";
    }

    private void onFileSplice(int res) {
        fileSpliceInFlight = false;
        if (res <= 0) {
            fail(res < 0 ? new NativeException("io_uring splice file -> pipe at file offset " + nextFileOffset, -res)
                    : new EOFException("file ended at offset " + nextFileOffset + " before " + end + ": truncated while being sent"));
            return;
        }
        nextFileOffset += res;
        inPipe += res;
    }

    private void onSocketSplice(int res) {
        socketSpliceInFlight = false;
        if (res > 0) {
            inPipe -= res;
            sent += res;
        } else if (res == 0) {
            // Only a pipe without writers ends like this; draining again would repeat it for ever.
            fail(new IOException("io_uring splice pipe -> socket moved nothing after " + sent + " of " + length + " bytes"));
        } else if (res != -UringOps.ECANCELED && res != -UringOps.EAGAIN && !failed()) {
            // -ECANCELED: its file splice was short (drained next) or failed (already the failure); -EAGAIN: the link
            // was cut and it found the pipe still empty (drained next).
            fail(new NativeException("io_uring splice pipe -> socket after " + sent + " of " + length + " bytes", -res));
        }
    }

    /** When nothing is in flight: drain what the pipe still holds, else start the next pair. */
    private void next() {
        if (failed() || fileSpliceInFlight || socketSpliceInFlight) {
            return;
        }
        if (inPipe > 0) {
            spliceToSocket(inPipe);
        } else if (nextFileOffset < end) {
            int n = (int) Math.min(pipeSize, end - nextFileOffset);
            fileSpliceInFlight = true;
            submit(UringOps.splice(fileFd, nextFileOffset, pipeWrite, n, link, 0, FILE_TO_PIPE));
            spliceToSocket(n);
        }
    }

    private void spliceToSocket(int n) {
        socketSpliceInFlight = true;
        submit(UringOps.splice(pipeRead, -1, socketFd, n, false, Splice.SPLICE_F_NONBLOCK, PIPE_TO_SOCKET));
    }
}
