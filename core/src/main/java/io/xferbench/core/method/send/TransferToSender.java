package io.xferbench.core.method.send;

import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.Degradation;
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
 */
public final class TransferToSender implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("transfer-to",
            "FileChannel.transferTo loop: sendfile64(2), no user-space copy; <= ~2 GiB per call",
            options -> new TransferToSender());

    /** The gate's end-to-end test turns transfer-to into a 4 KiB copy loop; see {@link Degradation}. */
    private static final int DEGRADED_BUFFER = 4096;

    /** A blocking socket never takes zero bytes; if sendfile keeps answering 0 the file shrank under us. */
    private static final int MAX_ZERO_RETURNS = 16;

    private final ByteBuffer degraded = Degradation.requested("transfer-to") ? ByteBuffer.allocate(DEGRADED_BUFFER) : null;

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        if (degraded != null) {
            ChannelCopy.copy(file.channel(), file.path(), position, length, degraded, socket);
            return;
        }
        long pos = position;
        long end = position + length;
        int zeros = 0;
        while (pos < end) {
            long n = file.channel().transferTo(pos, end - pos, socket);
            if (n > 0) {
                pos += n;
                zeros = 0;
            } else if (++zeros > MAX_ZERO_RETURNS) {
                throw new EOFException("transferTo made no progress at " + pos + " of " + file.path() + " (file truncated?)");
            }
        }
    }
}
