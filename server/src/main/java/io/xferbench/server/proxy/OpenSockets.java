package io.xferbench.server.proxy;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The proxy's connected sockets, both ends of every connection: what its close must shut down. */
final class OpenSockets {
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();

    void add(SocketChannel socket) {
        open.add(socket);
    }

    /** Closes a socket the connection is done with. */
    void close(SocketChannel socket) {
        open.remove(socket);
        closeQuietly(socket);
    }

    void shutAll() {
        for (SocketChannel s : open) {
            // Shut the sockets themselves down first: a Netty relay works on duplicates of their fds, which a
            // close of the JDK's descriptor alone would leave running.
            try {
                s.shutdownInput();
                s.shutdownOutput();
            } catch (IOException ignored) {
                // Already shut down or closed.
            }
            closeQuietly(s);
        }
    }

    private static void closeQuietly(SocketChannel socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Nothing left to do with it.
        }
    }
}
