package io.xferbench.core.uring;

import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.Errno;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.uring.IoUring;
import io.xferbench.nativeio.uring.PinnedMemory;
import io.xferbench.nativeio.uring.RegisteredBuffers;
import io.xferbench.nativeio.uring.RingOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends a file on a ring of the suite's own ({@link FixedSendPipeline}), set up on the connection's first transfer
 * with {@code depth} buffers registered once, so no read or zero-copy send pins pages per request. Each transfer
 * registers the file and a duplicate of the socket (a connection closed from outside frees its fd number, which
 * another connection may get while a request is queued; the duplicate keeps it this socket's) and unregisters both
 * after. A transfer that fails tears the ring down at once (descriptor, registered buffers and files), so a client
 * that resets mid-body leaves nothing behind even before the connection is closed; the next transfer sets up anew.
 */
public final class FixedBufferSender implements FileSender {
    private static final int FILE = 0;
    private static final int SOCKET = 1;

    private final int chunkSize;
    private final int depth;
    private final boolean zeroCopy;
    private IoUring ring;
    private RegisteredBuffers buffers;

    /**
     * @param chunkSize bytes per registered buffer
     * @param depth     buffers, so chunks in flight
     * @param zeroCopy  SEND_ZC from the registered buffer instead of SEND
     */
    public FixedBufferSender(int chunkSize, int depth, boolean zeroCopy) {
        if (chunkSize < 1 || depth < 1) {
            throw new IllegalArgumentException("chunk " + chunkSize + " and depth " + depth + " must be positive");
        }
        this.chunkSize = chunkSize;
        this.depth = depth;
        this.zeroCopy = zeroCopy;
    }

    /**
     * Sets the ring up before the head, so a kernel that will not pin {@code depth × chunkSize} bytes (RLIMIT_MEMLOCK
     * without CAP_IPC_LOCK; the availability probe registered only 64 KiB) refuses the request with why.
     */
    @Override
    public void checkSupported(SourceFile file, long position, long length) throws UnsupportedTransferException {
        String reason = pinningRefusal(PinnedMemory.here());
        if (reason == null && length > 0) {
            try {
                openRing();
            } catch (NativeException e) {
                if (e.errno() != Errno.ENOMEM) {
                    return; // send() sets up again and fails with this
                }
                reason = e.getMessage();
            }
        }
        if (reason != null) {
            throw new UnsupportedTransferException(reason);
        }
    }

    /** Null when {@code pinned} allows this sender's registered buffers, else why not. */
    String pinningRefusal(PinnedMemory pinned) {
        return ring != null ? null : pinned.refusal(depth, chunkSize);
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        if (length == 0) {
            return;
        }
        openRing();
        int sock = Fds.dup(Fds.of(socket));
        try {
            ring.registerFiles(Fds.of(file.channel()), sock);
            new FixedSendPipeline(ring, buffers, FILE, SOCKET, zeroCopy).run(position, length);
            ring.unregisterFiles();
        } catch (IOException | RuntimeException e) {
            try {
                closeRing();
            } catch (NativeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        } finally {
            Fds.close(sock);
        }
    }

    private void openRing() throws NativeException {
        if (ring != null) {
            return;
        }
        // depth reads and one send in the SQ; the CQ (twice that) also holds a SEND_ZC's notification
        IoUring opened = IoUring.open(RingOptions.plain(depth + 2));
        try {
            List<ByteBuffer> list = new ArrayList<>(depth);
            for (int i = 0; i < depth; i++) {
                list.add(AlignedBuffers.allocate(chunkSize, 4096));
            }
            buffers = opened.registerBuffers(list);
        } catch (NativeException | RuntimeException e) {
            try {
                opened.close();
            } catch (NativeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        ring = opened;
    }

    private void closeRing() throws NativeException {
        IoUring held = ring;
        ring = null;
        buffers = null;
        if (held != null) {
            held.close();
        }
    }

    @Override
    public void close() throws IOException {
        closeRing();
    }
}
