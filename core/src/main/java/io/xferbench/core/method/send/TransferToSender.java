package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * {@code FileChannel.transferTo} in a loop: sendfile(2), zero-copy from the page cache. One call moves at
 * most ~2 GiB (and may move less), so the loop, not the caller, finishes the job.
 *
 * <p>A socket a virtual thread has used is non-blocking underneath whatever its blocking mode says (the JDK forces
 * it so, for good), and there sendfile answers EAGAIN, which {@code transferTo} reports as 0 bytes. Java has no call
 * that waits for such a socket to take more except a write, so on 0 the next few bytes go by pread and write: the
 * write parks a virtual thread (or polls on a platform thread) until the socket drains, then sendfile goes on. On a
 * blocking socket sendfile never answers 0 before the end of the file, so there the pread finding the end is how a
 * file that shrank under the transfer is told.
 */
public final class TransferToSender implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("transfer-to",
            "FileChannel.transferTo loop: sendfile64(2), no user-space copy; <= ~2 GiB per call",
            MethodTraits.twin("sendfile").definedBy("sendfile64"),
            options -> new TransferToSender());

    /** One page: small against the send buffer sendfile fills after each wait, so almost nothing is copied. */
    static final int WAIT_WRITE_BYTES = 4096;

    private ByteBuffer waitWrite;

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        long pos = position;
        long end = position + length;
        while (pos < end) {
            long n = file.channel().transferTo(pos, end - pos, socket);
            pos += n > 0 ? n : writeWaitingForSocket(file, pos, end, socket);
        }
    }

    /** Copies up to a page at {@code pos} by pread and write, waiting as the write waits; returns the bytes moved. */
    private int writeWaitingForSocket(SourceFile file, long pos, long end, SocketChannel socket) throws IOException {
        if (waitWrite == null) {
            waitWrite = ByteBuffer.allocateDirect(WAIT_WRITE_BYTES);
        }
        ByteBuffer chunk = waitWrite.clear().limit((int) Math.min(WAIT_WRITE_BYTES, end - pos));
        int read = file.channel().read(chunk, pos);
        if (read < 0) {
            throw new EOFException("transferTo stopped at " + pos + " of " + end + " bytes of " + file.path() + ": the file ended there (truncated?)");
        }
        chunk.flip();
        while (chunk.hasRemaining()) {
            socket.write(chunk);
        }
        return read;
    }
}
