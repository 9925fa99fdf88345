package io.xferbench.nativeio;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * A connected loopback TCP pair with small buffers (the kernel doubles them), so bytes cannot vanish into them and a
 * stalled reader really makes a non-blocking sender meet EAGAIN.
 */
record LoopbackPair(ServerSocketChannel listener, SocketChannel client, SocketChannel accepted) implements AutoCloseable {
    static LoopbackPair open(int bufferBytes) throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open().setOption(StandardSocketOptions.SO_RCVBUF, bufferBytes)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open().setOption(StandardSocketOptions.SO_SNDBUF, bufferBytes);
        client.connect(listener.getLocalAddress());
        return new LoopbackPair(listener, client, listener.accept());
    }

    @Override
    public void close() throws IOException {
        try (listener; client; accepted) {
            // all three closed
        }
    }
}
