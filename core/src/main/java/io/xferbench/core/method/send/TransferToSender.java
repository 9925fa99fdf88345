package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * {@code FileChannel.transferTo} in a loop: sendfile(2), zero-copy from the page cache. One call moves at
 * most ~2 GiB (and may move less), so the loop, not the caller, finishes the job. On Linux every call also asks the
 * file's size (fstat) and tries copy_file_range first, which a socket target refuses; {@link SendfileSender} is the
 * same loop without them.
 *
 * <p>On a socket a virtual thread has used, sendfile answers EAGAIN, which {@code transferTo} reports as 0 bytes;
 * then a {@link WaitingPageWrite} waits for room. On a blocking socket sendfile never answers 0 before the end of the
 * file, so there the pread finding the end is how a file that shrank under the transfer is told.
 */
public final class TransferToSender implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("transfer-to",
            "FileChannel.transferTo loop: sendfile64(2), no user-space copy; <= ~2 GiB per call",
            MethodTraits.twin("sendfile").definedBy("sendfile64"),
            options -> new TransferToSender());

    private final WaitingPageWrite waitWrite = new WaitingPageWrite("transferTo");

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        long pos = position;
        long end = position + length;
        while (pos < end) {
            long n = file.channel().transferTo(pos, end - pos, socket);
            pos += n > 0 ? n : waitWrite.write(file, pos, end, socket);
        }
    }
}
