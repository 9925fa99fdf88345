package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;

/** {@code FileInputStream.read} into a byte[] → socket {@code OutputStream.write}: read(2)/write(2) with two JDK copies. */
public final class StreamSender implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("stream",
            "FileInputStream -> socket OutputStream through a byte[] buffer: read(2) + write(2) per buffer",
            MethodTraits.twin("readwrite").definedBy("read", "write"),
            StreamSender::new);

    private final byte[] buffer;

    private StreamSender(TransferOptions options) {
        this.buffer = new byte[options.bufferSize()];
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        // Channels.newOutputStream is what Socket.getOutputStream gives for a channel-backed socket.
        OutputStream out = Channels.newOutputStream(socket);
        try (FileInputStream in = new FileInputStream(file.reopenPath().toFile())) {
            if (in.skip(position) != position) {
                throw new EOFException(file.path() + " is shorter than offset " + position);
            }
            long remaining = length;
            while (remaining > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
                if (n < 0) {
                    throw new EOFException(file.path() + " ended " + remaining + " bytes early");
                }
                out.write(buffer, 0, n);
                remaining -= n;
            }
        }
    }
}
