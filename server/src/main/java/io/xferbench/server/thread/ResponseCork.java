package io.xferbench.server.thread;

import io.xferbench.nativeio.TcpCork;
import io.xferbench.server.config.ServerConfig;
import java.nio.channels.SocketChannel;

/**
 * Corks a blocking connection's download answer (TCP_CORK) while its parts are written, when the server corks answers
 * ({@code --cork-responses}; off by default): header, body and trailer then leave in as few segments as their bytes need,
 * as nginx's {@code tcp_nopush} does around sendfile. On loopback (64 KiB MTU) that makes a small answer one segment
 * instead of three, each of which costs the server the receive processing of the client's side and the client a
 * wake-up; over a 1,500-byte MTU it cost more than it saved (docs/load.md, "Corked answers").
 */
public final class ResponseCork {
    private static final boolean AVAILABLE = TcpCork.available();

    private ResponseCork() {
    }

    /** Whether answers are corked here: asked for, and the shim can set TCP_CORK. */
    public static boolean corks(ServerConfig config) {
        return config.corkResponses() && AVAILABLE;
    }

    static void hold(ServerConfig config, SocketChannel socket) throws java.io.IOException {
        if (corks(config)) {
            TcpCork.set(socket, true);
        }
    }

    /** Sends what the cork held; called once the answer's last part is written. */
    static void release(ServerConfig config, SocketChannel socket) throws java.io.IOException {
        if (corks(config)) {
            TcpCork.set(socket, false);
        }
    }
}
