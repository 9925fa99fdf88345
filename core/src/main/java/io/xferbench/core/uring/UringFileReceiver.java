package io.xferbench.core.uring;

import io.xferbench.core.method.FileReceiver;
import io.xferbench.nativeio.Fds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Receives an upload body through this package's io_uring engine ({@link SocketToFilePipeline}): RECV into one
 * buffer while the full ones are written. The calling thread only waits; it returns when no SQE is in flight.
 * The buffers are kept for the connection's next uploads; the socket's fd is duplicated per body for the same
 * reason as in {@link UringFileSender} (a number freed by the server's reaper is never reused under a queued SQE).
 */
public final class UringFileReceiver implements FileReceiver {
    private final int chunkSize;
    private UringBuffers buffers;

    /** @param chunkSize bytes per buffer: the most one RECV or one WRITE moves */
    public UringFileReceiver(int chunkSize) {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " < 1");
        }
        this.chunkSize = chunkSize;
    }

    @Override
    public long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException {
        if (length == 0) {
            return new CRC32C().getValue();
        }
        int sock = Fds.dup(Fds.of(socket));
        try {
            SocketToFilePipeline pipeline = new SocketToFilePipeline(buffers(), sock, Fds.of(file), ahead, length);
            pipeline.run();
            return pipeline.crc32c();
        } finally {
            Fds.close(sock);
        }
    }

    private UringBuffers buffers() {
        int depth = UringDepth.get();
        if (buffers == null || buffers.count() != depth) {
            buffers = new UringBuffers(depth, chunkSize);
        }
        return buffers;
    }
}
