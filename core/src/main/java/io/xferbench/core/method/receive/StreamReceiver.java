package io.xferbench.core.method.receive;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedReceiverMethod;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.TransferOptions;
import java.io.EOFException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Socket {@code InputStream.read} into a byte[] → {@code FileOutputStream.write}: read(2) + write(2) per buffer,
 * with the JDK copying through a temporary direct buffer on each side. The stream opens its own descriptor on
 * the temp file, as a stream-based server would.
 */
public final class StreamReceiver implements FileReceiver {
    public static final ReceiverMethod METHOD = DefinedReceiverMethod.alwaysAvailable("stream",
            "socket InputStream -> FileOutputStream through a byte[] buffer: read(2) + write(2) per buffer",
            MethodTraits.noTwin(MethodTraits.NO_UPLOAD_TWIN_YET).definedBy("read", "write"),
            StreamReceiver::new);

    private final byte[] buffer;
    private final CRC32C crc = new CRC32C();

    private StreamReceiver(TransferOptions options) {
        this.buffer = new byte[options.bufferSize()];
    }

    @Override
    public long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException {
        crc.reset();
        // Channels.newInputStream is what Socket.getInputStream gives for a channel-backed socket. Not closed:
        // closing it would close the socket.
        InputStream in = Channels.newInputStream(PrefixedChannel.of(ahead, socket));
        try (FileOutputStream out = new FileOutputStream(path.toFile())) {
            long remaining = length;
            while (remaining > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
                if (n < 0) {
                    throw new EOFException("connection closed after " + (length - remaining) + " of " + length + " body bytes");
                }
                out.write(buffer, 0, n);
                crc.update(buffer, 0, n);
                remaining -= n;
            }
        }
        return crc.getValue();
    }
}
