package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * {@code FileChannel.transferTo} in a loop: sendfile(2), zero-copy from the page cache. One call moves at
 * most ~2 GiB (and may move less), so the loop, not the caller, finishes the job.
 */
public final class TransferToSender implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("transfer-to",
            "FileChannel.transferTo loop: sendfile64(2), no user-space copy; <= ~2 GiB per call",
            MethodTraits.twin("sendfile").definedBy("sendfile64"),
            options -> new TransferToSender());

    /** A blocking socket never takes zero bytes; if sendfile keeps answering 0 the file shrank under us. */
    private static final int MAX_ZERO_RETURNS = 16;

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
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
