package io.xferbench.server.proxy;

import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/** The error frames the proxy itself sends a client, before anything of the upstream's has reached it. */
final class ProxyAnswers {
    private ProxyAnswers() {
    }

    static void error(SocketChannel client, Status status, String message) throws IOException {
        Frames.writeFully(client, ResponseCodec.error(status, message));
    }

    /** For a connection that is ending anyway: a client gone by now needs no answer. */
    static void errorQuietly(SocketChannel client, Status status, String message) {
        try {
            error(client, status, message);
        } catch (IOException ignored) {
            // The client is gone.
        }
    }
}
