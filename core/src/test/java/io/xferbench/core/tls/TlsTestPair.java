package io.xferbench.core.tls;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** Two ends of one real loopback TCP connection, blocking, for the TLS tests. */
final class TlsTestPair implements AutoCloseable {
    final SocketChannel client;
    final SocketChannel server;

    TlsTestPair() throws IOException {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            client = SocketChannel.open(listener.getLocalAddress());
            server = listener.accept();
        }
    }

    int port() throws IOException {
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    /** Runs {@code side} on a thread of its own, as the other end of the connection does its part. */
    static <T> Future<T> onThread(java.util.concurrent.Callable<T> side) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                result.complete(side.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    @Override
    public void close() throws IOException {
        try (client; server) {
            // both closed
        }
    }
}
