package io.xferbench.jmh.gate;

import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * transfer-to as a regression would make it: a 4 KiB copy loop (pread64 + write) instead of sendfile. Slipped into
 * the JMH forks by {@code -Dxferbench.method.override=transfer-to=io.xferbench.jmh.gate.DegradedTransferTo}, so the
 * gate's end-to-end test can show it catches a real regression without any hook in production code.
 */
public final class DegradedTransferTo implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("transfer-to",
            "degraded for the gate's end-to-end test: 4 KiB pread64(2) + write(2) loop", MethodTraits.twin("sendfile"),
            options -> new DegradedTransferTo());

    private final ByteBuffer buffer = ByteBuffer.allocate(4096);

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        long pos = position;
        long end = position + length;
        while (pos < end) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), end - pos));
            int n = file.channel().read(buffer, pos);
            if (n < 0) {
                throw new EOFException(file.path() + " ended at " + pos);
            }
            buffer.flip();
            while (buffer.hasRemaining()) {
                socket.write(buffer);
            }
            pos += n;
        }
    }
}
