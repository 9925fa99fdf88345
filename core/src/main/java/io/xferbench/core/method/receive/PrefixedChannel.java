package io.xferbench.core.method.receive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;

/**
 * A channel that first yields bytes already read from the socket (an upload body's start, read with its request's
 * header), then reads on. The call that hands out the last of them reads on into the room left in the same call:
 * every reader here asks only for body bytes still owed, so that read would come next anyway, and the buffer goes
 * to the file in one write instead of two.
 */
final class PrefixedChannel implements ReadableByteChannel {
    private final ByteBuffer prefix;
    private final ReadableByteChannel in;

    private PrefixedChannel(ByteBuffer prefix, ReadableByteChannel in) {
        this.prefix = prefix;
        this.in = in;
    }

    /** The socket itself when nothing was read ahead. */
    static ReadableByteChannel of(ByteBuffer ahead, SocketChannel socket) {
        return ahead.hasRemaining() ? new PrefixedChannel(ahead, socket) : socket;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!prefix.hasRemaining()) {
            return in.read(dst);
        }
        int n = Math.min(prefix.remaining(), dst.remaining());
        dst.put(dst.position(), prefix, prefix.position(), n);
        dst.position(dst.position() + n);
        prefix.position(prefix.position() + n);
        if (!prefix.hasRemaining() && dst.hasRemaining()) {
            int more = in.read(dst);
            if (more > 0) {
                n += more;
            }
        }
        return n;
    }

    @Override
    public boolean isOpen() {
        return in.isOpen();
    }

    /** The reader does not own the socket: the connection closes it. */
    @Override
    public void close() {
    }
}
