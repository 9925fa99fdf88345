package io.xferbench.core.method.send;

import io.xferbench.core.method.SourceFile;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * How a sendfile loop waits for a full non-blocking socket. A socket a virtual thread has used is non-blocking
 * underneath whatever its blocking mode says (the JDK forces it so, for good), and there sendfile answers EAGAIN.
 * Java has no call that waits for such a socket to take more except a write, so the next page goes by pread and write:
 * the write parks a virtual thread (or polls on a platform thread) until the socket drains, then sendfile goes on.
 */
final class WaitingPageWrite {
    /** One page: small against the send buffer sendfile fills after each wait, so almost nothing is copied. */
    static final int BYTES = 4096;

    private final String call;
    private ByteBuffer page;

    /** {@code call} names the sendfile loop in the error when the file turns out shorter than the transfer. */
    WaitingPageWrite(String call) {
        this.call = call;
    }

    /** Copies up to a page at {@code pos} by pread and write, waiting as the write waits; returns the bytes moved. */
    int write(SourceFile file, long pos, long end, SocketChannel socket) throws IOException {
        if (page == null) {
            page = ByteBuffer.allocateDirect(BYTES);
        }
        ByteBuffer chunk = page.clear().limit((int) Math.min(BYTES, end - pos));
        int read = file.channel().read(chunk, pos);
        if (read < 0) {
            throw endedEarly(file, pos, end);
        }
        chunk.flip();
        while (chunk.hasRemaining()) {
            socket.write(chunk);
        }
        return read;
    }

    EOFException endedEarly(SourceFile file, long pos, long end) {
        return new EOFException(call + " stopped at " + pos + " of " + end + " bytes of " + file.path() + ": the file ended there (truncated?)");
    }
}
