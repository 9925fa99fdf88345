package io.xferbench.core.method.send;

import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.pipe.RawSplice;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.Sendfile;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * sendfile64(2) in a loop through the JNA shim: the syscall {@link TransferToSender} ends in, and nothing else per
 * call (the JDK's transferTo asks the file's size and tries copy_file_range first). The body goes as an event-loop
 * server's file region sends it, so a thread-per-connection server and an event loop can be compared on their I/O
 * model alone. A full non-blocking socket (one a virtual thread has used) is waited for by a {@link WaitingPageWrite}.
 */
public final class SendfileSender implements FileSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("sendfile",
            "sendfile64(2) loop through the JNA shim: transfer-to without the JDK's fstat and copy_file_range per call",
            RawSplice::availability,
            MethodTraits.twin("sendfile").definedBy("sendfile64"),
            options -> new SendfileSender());

    private final WaitingPageWrite waitWrite = new WaitingPageWrite("sendfile64");

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        int fileFd = Fds.of(file.channel());
        int socketFd = Fds.of(socket);
        long pos = position;
        long end = position + length;
        while (pos < end) {
            long n = Sendfile.send(socketFd, fileFd, pos, end - pos);
            if (n > 0) {
                pos += n;
            } else if (n == Sendfile.SOCKET_FULL) {
                pos += waitWrite.write(file, pos, end, socket);
            } else {
                throw waitWrite.endedEarly(file, pos, end);
            }
        }
    }
}
