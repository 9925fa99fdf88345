package io.xferbench.server.thread;

import io.xferbench.core.protocol.ProtocolException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.RequestPrefix;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Wire;
import io.xferbench.server.http.RequestDecoder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * Reads native request heads of one blocking connection through a buffer of its own: one read(2) takes a whole head
 * and whatever follows it, where reading the prefix and then the exact rest took two. What arrived past a head stays
 * here for whatever consumes it next: {@link #ahead} lends the start of an upload's body to its receiver, and the
 * next {@link #next} parses a pipelined request from it before reading again. Every length is bounded as in
 * {@link RequestCodec#read}, with its messages.
 */
final class NativeRequestReader {
    /** Larger than the largest head (6 + 1,367 bytes), so a head always fits once the buffer is compacted. */
    static final int CAPACITY = 2048;

    private final ReadableByteChannel in;
    /** Unread bytes between position and limit. */
    private final ByteBuffer buffer;
    private final RequestDecoder decoder;

    /**
     * @param read the connection's bytes read so far (the protocol sniff), flipped, in a buffer of {@link #CAPACITY}
     * @param decoder what decodes each request's body
     */
    NativeRequestReader(ReadableByteChannel in, ByteBuffer read, RequestDecoder decoder) {
        if (read.capacity() < CAPACITY) {
            throw new IllegalArgumentException("buffer of " + read.capacity() + " bytes, under " + CAPACITY);
        }
        this.in = in;
        this.buffer = read;
        this.decoder = decoder;
    }

    /** A buffer for the connection's first read. */
    static ByteBuffer newBuffer() {
        return ByteBuffer.allocate(CAPACITY);
    }

    /**
     * @return the next request, or null when the peer closed cleanly before sending a byte of it
     * @throws ProtocolException for anything malformed, with the status to answer
     */
    Request next() throws IOException {
        while (true) {
            int have = buffer.remaining();
            if (have >= Wire.REQUEST_PREFIX_BYTES) {
                int at = buffer.position();
                int length = RequestPrefix.bodyLength(buffer, at);
                int end = at + Wire.REQUEST_PREFIX_BYTES + length;
                if (end <= buffer.limit()) {
                    buffer.position(end);
                    return decoder.decodeNative(buffer.slice(at + Wire.REQUEST_PREFIX_BYTES, length));
                }
            }
            if (!readMore()) {
                if (have == 0) {
                    return null;
                }
                throw RequestPrefix.truncated(have);
            }
        }
    }

    /** @return false at the end of the stream */
    private boolean readMore() throws IOException {
        buffer.compact();
        try {
            return in.read(buffer) >= 0;
        } finally {
            buffer.flip();
        }
    }

    /**
     * The bytes read past the last head, at most {@code max}: the start of an upload's body of {@code max} bytes. The
     * caller hands it to the receiver and then to {@link #took}; what the receiver did not take stays here.
     */
    ByteBuffer ahead(long max) {
        return buffer.slice(buffer.position(), (int) Math.min(max, buffer.remaining()));
    }

    /** Drops what was consumed of a buffer from {@link #ahead}: up to its position. */
    void took(ByteBuffer ahead) {
        buffer.position(buffer.position() + ahead.position());
    }
}
