package io.xferbench.client.load;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A server that accepts every connection and never answers, nor reads: what a stuck server or upstream looks like. */
public final class SilentServer implements AutoCloseable {
    private final ServerSocket listener;
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    public SilentServer() throws IOException {
        listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().daemon().name("silent-server").start(() -> {
            try {
                while (true) {
                    held.add(listener.accept());
                }
            } catch (IOException closed) {
                // The test is over.
            }
        });
    }

    public int port() {
        return listener.getLocalPort();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", port());
    }

    /** Connections accepted so far. */
    public int accepted() {
        return held.size();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Socket s : held) {
            s.close();
        }
    }
}
