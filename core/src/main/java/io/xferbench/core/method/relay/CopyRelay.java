package io.xferbench.core.method.relay;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedRelayMethod;
import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.TransferOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The classic proxy: per direction a blocking thread reads into a user buffer and writes it out, read(2) +
 * write(2) per buffer, two kernel copies per byte. The buffer is a direct ByteBuffer of {@code bufferSize}
 * (default 64 KiB; 1 KiB reproduces the seed experiment), so the JDK adds no copy of its own.
 */
public final class CopyRelay implements Relay {
    public static final RelayMethod METHOD = new DefinedRelayMethod("copy",
            "a blocking thread per direction: SocketChannel.read into a direct user buffer (bufferSize) + SocketChannel.write: read(2) + write(2)",
            () -> Availability.AVAILABLE, MethodTraits.PLAIN.definedBy("read", "write"), CopyRelay::new, RelayMethod::bothDirections);

    private final int bufferSize;

    private CopyRelay(TransferOptions options) {
        this.bufferSize = options.bufferSize();
    }

    @Override
    public Relayed relay(SocketChannel client, SocketChannel upstream) throws IOException {
        return DuplexPump.run(client, upstream, this::copy, this::copy);
    }

    private long copy(SocketChannel from, SocketChannel to) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(bufferSize);
        long total = 0;
        while (from.read(buffer.clear()) >= 0) {
            buffer.flip();
            total += buffer.remaining();
            while (buffer.hasRemaining()) {
                to.write(buffer);
            }
        }
        return total;
    }
}
