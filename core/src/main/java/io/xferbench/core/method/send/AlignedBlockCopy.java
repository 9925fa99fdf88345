package io.xferbench.core.method.send;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * The O_DIRECT send loop: read whole aligned blocks (O_DIRECT demands aligned offset, length and buffer),
 * then write only the requested bytes of them to the socket. A final partial block reads short, as it must.
 */
final class AlignedBlockCopy {

    /** A positional O_DIRECT read into an aligned buffer, from its position to its limit. */
    @FunctionalInterface
    interface BlockRead {
        int read(ByteBuffer dst, long alignedOffset) throws IOException;
    }

    private AlignedBlockCopy() {
    }

    static void copy(BlockRead source, Path path, int block, ByteBuffer buffer, long position, long length, SocketChannel socket)
            throws IOException {
        long pos = position;
        long end = position + length;
        while (pos < end) {
            long blockStart = pos - (pos % block);
            int skip = (int) (pos - blockStart);
            buffer.clear();
            int n = source.read(buffer, blockStart);
            if (n <= skip) {
                throw new EOFException(path + " ended " + (end - pos) + " bytes early");
            }
            buffer.flip().position(skip).limit((int) Math.min(n, skip + (end - pos)));
            pos += buffer.remaining();
            while (buffer.hasRemaining()) {
                socket.write(buffer);
            }
        }
    }

    /** A buffer of whole blocks, at least one, near the requested size. */
    static int bufferSize(int requested, int block) {
        return Math.max(block, requested / block * block);
    }
}
