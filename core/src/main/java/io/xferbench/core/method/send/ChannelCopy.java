package io.xferbench.core.method.send;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/** The copy loop shared by the channel senders: positional read into a buffer, write it all, repeat. */
final class ChannelCopy {
    private ChannelCopy() {
    }

    static void copy(FileChannel file, Path path, long position, long length, ByteBuffer buffer, SocketChannel socket) throws IOException {
        long pos = position;
        long end = position + length;
        while (pos < end) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), end - pos));
            int n = file.read(buffer, pos);
            if (n < 0) {
                throw new EOFException(path + " ended " + (end - pos) + " bytes early");
            }
            pos += n;
            buffer.flip();
            while (buffer.hasRemaining()) {
                socket.write(buffer);
            }
        }
    }
}
