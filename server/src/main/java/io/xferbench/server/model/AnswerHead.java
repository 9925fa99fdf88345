package io.xferbench.server.model;

import io.xferbench.core.protocol.Frames;
import io.xferbench.nativeio.SendMore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Writes a download answer's head (the native header, HTTP's status line and headers) on a blocking connection so that
 * it leaves with the body's first bytes: sent with MSG_MORE, it waits in the socket for the body's send instead of
 * going out as a small segment of its own, which on loopback costs the server the receive processing of one more
 * segment and the client one more wake-up. No syscall more than a plain write; the JDK's write takes what a full
 * socket left.
 */
public final class AnswerHead {
    /** Without the shim (or the JDK's descriptors) the head is a plain write. */
    private static final boolean SEND_MORE = SendMore.available();

    private AnswerHead() {
    }

    public static void write(SocketChannel socket, ByteBuffer head) throws IOException {
        if (SEND_MORE) {
            SendMore.send(socket, head);
        }
        Frames.writeFully(socket, head);
    }
}
