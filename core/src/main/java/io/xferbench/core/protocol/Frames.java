package io.xferbench.core.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/** Exact reads and writes on blocking channels. */
public final class Frames {
    private Frames() {
    }

    public static void readFully(ReadableByteChannel in, ByteBuffer dst) throws IOException {
        while (dst.hasRemaining()) {
            if (in.read(dst) < 0) {
                throw new EOFException("connection closed with " + dst.remaining() + " bytes of a frame missing");
            }
        }
    }

    /** Like {@link #readFully} but a clean end of stream before the first byte returns false. */
    public static boolean readFullyOrEof(ReadableByteChannel in, ByteBuffer dst) throws IOException {
        int start = dst.position();
        while (dst.hasRemaining()) {
            if (in.read(dst) < 0) {
                if (dst.position() == start) {
                    return false;
                }
                throw new EOFException("connection closed with " + dst.remaining() + " bytes of a frame missing");
            }
        }
        return true;
    }

    public static void writeFully(WritableByteChannel out, ByteBuffer src) throws IOException {
        while (src.hasRemaining()) {
            out.write(src);
        }
    }
}
