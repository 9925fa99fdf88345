package io.xferbench.core.uring;

import io.netty.channel.uring.IoUringIoEvent;
import io.xferbench.nativeio.NativeException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.zip.CRC32C;

/**
 * One socket → file transfer of exactly {@code length} bytes driven through io_uring: IORING_OP_RECV fills one
 * buffer at a time in stream order, and each full buffer goes to the file as an IORING_OP_WRITE at its 64-bit
 * offset while the next buffer receives, so up to {@code buffers - 1} writes are in flight behind the receive.
 *
 * <p>One RECV in flight at a time: two on one stream socket may complete in either order, and a RECV is never
 * asked for more than the body still owes, so nothing of the next request on the connection is consumed. The
 * CRC32C is updated at each RECV completion, which is in stream order for that reason.
 *
 * <p>Bytes the caller read ahead (the body's start, read with the request's header) fill the first buffers as if
 * received, so they go to the file in the same WRITEs and cost no SQE of their own.
 *
 * <p>Writes may complete in any order (each has its own offset); a buffer takes the next chunk only after its
 * write completed in full. A short write is resubmitted for the rest.
 */
final class SocketToFilePipeline extends UringTransfer {
    private final UringBuffers buffers;
    private final int socketFd;
    private final int fileFd;
    private final ByteBuffer ahead;
    private final long length;
    private final CRC32C crc = new CRC32C();
    private final ArrayDeque<Short> free = new ArrayDeque<>();
    private final long[] chunkOffset;
    private final int[] chunkLength;
    private final int[] chunkDone; // bytes received while receiving, bytes written while writing
    private short receiving = -1;
    private long received;
    private long written;

    /** @param ahead the body's first bytes, at most {@code length}, taken before the socket's */
    SocketToFilePipeline(UringBuffers buffers, int socketFd, int fileFd, ByteBuffer ahead, long length) {
        this.buffers = buffers;
        this.socketFd = socketFd;
        this.fileFd = fileFd;
        this.ahead = ahead;
        this.length = length;
        int n = buffers.count();
        this.chunkOffset = new long[n];
        this.chunkLength = new int[n];
        this.chunkDone = new int[n];
        for (short i = 0; i < n; i++) {
            free.add(i);
        }
    }

    /** CRC32C of the bytes received, once the transfer succeeded. */
    long crc32c() {
        return crc.getValue();
    }

    @Override
    void start() {
        receiveNext();
    }

    @Override
    void completed(IoUringIoEvent event) {
        short slot = (short) event.userData();
        switch (event.opcode()) {
            case UringOps.OP_RECV -> onReceive(slot, event.res());
            case UringOps.OP_WRITE -> onWrite(slot, event.res());
            default -> fail(new IOException("unexpected io_uring completion for opcode " + event.opcode()));
        }
    }

    @Override
    boolean finished() {
        return written == length;
    }

    @Override
    String what() {
        return "io_uring upload";
    }

    /** Starts the next chunk's RECV unless one is in flight, the body is all in, or every buffer is being written. */
    private void receiveNext() {
        if (receiving >= 0 || failed() || received == length || free.isEmpty()) {
            return;
        }
        short slot = free.poll();
        chunkOffset[slot] = received;
        chunkLength[slot] = (int) Math.min(buffers.size(), length - received);
        chunkDone[slot] = 0;
        receiving = slot;
        if (ahead.hasRemaining()) {
            int n = Math.min(ahead.remaining(), chunkLength[slot]);
            buffers.slice(slot, 0, n).put(ahead.slice(ahead.position(), n));
            ahead.position(ahead.position() + n);
            arrived(slot, n);
            return;
        }
        submitReceive(slot);
    }

    private void submitReceive(short slot) {
        submit(UringOps.recv(socketFd, buffers.address(slot) + chunkDone[slot], chunkLength[slot] - chunkDone[slot], slot));
    }

    private void onReceive(short slot, int res) {
        if (res < 0) {
            fail(new NativeException("io_uring recv after " + received + " of " + length + " body bytes", -res));
            return;
        }
        if (res == 0) {
            fail(new EOFException("connection closed after " + received + " of " + length + " body bytes"));
            return;
        }
        arrived(slot, res);
    }

    /** {@code n} more bytes of the receiving chunk are in its buffer: the chunk's rest is received, or it is written. */
    private void arrived(short slot, int n) {
        crc.update(buffers.slice(slot, chunkDone[slot], n));
        chunkDone[slot] += n;
        received += n;
        if (chunkDone[slot] < chunkLength[slot]) {
            submitReceive(slot); // short without MSG_WAITALL's help: the rest of the chunk
            return;
        }
        receiving = -1;
        chunkDone[slot] = 0;
        submitWrite(slot);
        receiveNext();
    }

    private void submitWrite(short slot) {
        int done = chunkDone[slot];
        submit(UringOps.write(fileFd, chunkOffset[slot] + done, buffers.address(slot) + done, chunkLength[slot] - done, slot));
    }

    private void onWrite(short slot, int res) {
        if (res <= 0) {
            // 0 for a non-empty write to a regular file would repeat forever: report it as the failure it is.
            fail(res < 0 ? new NativeException("io_uring write at file offset " + (chunkOffset[slot] + chunkDone[slot]), -res)
                    : new IOException("io_uring write at file offset " + (chunkOffset[slot] + chunkDone[slot]) + " wrote nothing"));
            return;
        }
        chunkDone[slot] += res;
        if (chunkDone[slot] < chunkLength[slot]) {
            if (!failed()) {
                submitWrite(slot);
            }
            return;
        }
        written += chunkLength[slot];
        free.add(slot);
        receiveNext();
    }
}
