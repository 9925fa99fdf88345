package io.xferbench.server.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/**
 * Opens one connection's socket to the upstream (resolved already). The proxy is built with {@link #DIRECT}; a test
 * wraps it to make a first frame's handling fail before anything is relayed. The caller bounds the connect.
 */
@FunctionalInterface
interface UpstreamConnector {
    UpstreamConnector DIRECT = UpstreamConnector::connectDirectly;

    /** @throws IOException the upstream cannot be reached; nothing is left open */
    SocketChannel connect(InetSocketAddress upstream) throws IOException;

    private static SocketChannel connectDirectly(InetSocketAddress address) throws IOException {
        SocketChannel upstream = SocketChannel.open();
        try {
            upstream.setOption(StandardSocketOptions.TCP_NODELAY, true);
            upstream.connect(address);
            return upstream;
        } catch (IOException | RuntimeException | Error e) {
            try {
                upstream.close();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }
}
