package io.xferbench.core.uring;

import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SourceFile;
import io.xferbench.nativeio.DirectIoFile;
import io.xferbench.nativeio.Fds;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * Sends a file through this package's io_uring engine ({@link FileToSocketPipeline}) on an event loop of Netty's
 * io_uring transport. The calling thread only waits: it returns when no SQE of the transfer is in flight, so the
 * buffers, the file and the socket are never released under the kernel.
 *
 * <p>The socket's fd is duplicated for each transfer: a connection closed from outside (the server's deadline
 * reaper) frees its fd number, which a new connection may get before a queued SQE is submitted; the duplicate keeps
 * this socket's number for this socket until the transfer is over. The reaper's shutdown(2) still reaches the
 * socket and fails the sends.
 */
public final class UringFileSender implements FileSender {
    private final int chunkSize;
    private final boolean direct;
    private final boolean zeroCopy;
    private UringSlots slots;

    /**
     * @param chunkSize bytes per buffer (rounded down to whole O_DIRECT blocks when {@code direct})
     * @param direct    read with O_DIRECT (the file reopened through /proc/self/fd) instead of through the page cache
     * @param zeroCopy  IORING_OP_SENDMSG_ZC instead of IORING_OP_SENDMSG
     */
    public UringFileSender(int chunkSize, boolean direct, boolean zeroCopy) {
        this.chunkSize = chunkSize;
        this.direct = direct;
        this.zeroCopy = zeroCopy;
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        if (length == 0) {
            return;
        }
        int sock = Fds.dup(Fds.of(socket));
        try {
            if (direct) {
                try (DirectIoFile d = DirectIoFile.openRead(file.reopenPath())) {
                    run(d.fd(), d.alignment(), sock, position, length);
                }
            } else {
                run(Fds.of(file.channel()), 1, sock, position, length);
            }
        } finally {
            Fds.close(sock);
        }
    }

    private void run(int fileFd, int alignment, int sock, long position, long length) throws IOException {
        int depth = UringDepth.get();
        if (slots == null || slots.alignment() != alignment || slots.depth() != depth) {
            slots = new UringSlots(depth, chunkSize, alignment);
        }
        slots.reset();
        new FileToSocketPipeline(slots, fileFd, sock, zeroCopy, position, length).run();
    }
}
