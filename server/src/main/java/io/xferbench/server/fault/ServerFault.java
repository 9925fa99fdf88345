package io.xferbench.server.fault;

import io.netty.channel.ChannelException;
import java.io.IOException;
import java.nio.channels.NotYetConnectedException;

/**
 * Whose failure a failed write or a Netty channel's exception is: the socket's (the client left, a reset: an
 * IOException) or the server's own (a RuntimeException or Error in Netty or in our code), which may come wrapped in an
 * IOException. Netty fails the writes of a channel whose flush threw anything but an IOException with
 * {@code ChannelOutputShutdownException} (an IOException) caused by it, and {@code NettyFutures} and the Netty senders
 * wrap a non-IO cause the same way.
 */
public final class ServerFault {
    private static final int MAX_DEPTH = 8;

    private ServerFault() {
    }

    /** The RuntimeException or Error behind {@code failure}, or null when it is the socket's. */
    public static Throwable of(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            if (t instanceof RuntimeException || t instanceof Error) {
                return socketState(t) ? null : t;
            }
        }
        return null;
    }

    /**
     * The unchecked exceptions Netty reports a socket's state with: ENOTCONN ({@code Errors.ioResult}), and a socket
     * option that could not be set, a {@link ChannelException} around the socket's IOException. Anything else
     * unchecked, wrapped or not, is a failure of the server's own.
     */
    private static boolean socketState(Throwable t) {
        return t instanceof NotYetConnectedException || t instanceof ChannelException && t.getCause() instanceof IOException;
    }
}
