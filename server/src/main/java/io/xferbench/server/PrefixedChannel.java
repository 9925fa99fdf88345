package io.xferbench.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/** A channel that first yields bytes already read from it (to tell the protocol), then reads on. */
final class PrefixedChannel implements ReadableByteChannel {
    private final ByteBuffer prefix;
    private final ReadableByteChannel in;

    PrefixedChannel(ByteBuffer prefix, ReadableByteChannel in) {
        this.prefix = prefix;
        this.in = in;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (prefix.hasRemaining()) {
            int n = Math.min(prefix.remaining(), dst.remaining());
            dst.put(dst.position(), prefix, prefix.position(), n);
            dst.position(dst.position() + n);
            prefix.position(prefix.position() + n);
            return n;
        }
        return in.read(dst);
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
