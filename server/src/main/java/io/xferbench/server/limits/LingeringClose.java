package io.xferbench.server.limits;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * Closing a socket with unread input makes the kernel send RST, which can destroy the error answer just written
 * before the client reads it. So: FIN after the answer, then drain what the client still sends, bounded in bytes and
 * in time (the registry's deadline: its reaper shuts the socket down, which ends the read). The event loops do the
 * same without blocking, with the same bounds.
 */
public final class LingeringClose {
    public static final Duration LINGER = Duration.ofSeconds(2);
    public static final long MAX_BYTES = 1 << 20;

    private LingeringClose() {
    }

    /** Shuts {@code socket}'s output and reads until the client's FIN, {@link #MAX_BYTES} or the deadline. */
    public static void drain(SocketChannel socket, ConnectionRegistry registry, int id) {
        try {
            registry.enter(id, ConnectionRegistry.State.LINGERING, LINGER);
            socket.shutdownOutput();
            ByteBuffer sink = ByteBuffer.allocate(8192);
            long drained = 0;
            while (drained < MAX_BYTES) {
                int n = socket.read(sink.clear());
                if (n < 0) {
                    return;
                }
                drained += n;
            }
        } catch (IOException ignored) {
            // The client reset or left: nothing more to deliver.
        }
    }
}
