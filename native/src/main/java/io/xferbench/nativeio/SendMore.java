package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * send(2) with MSG_MORE: the bytes wait in the socket for the next send without the flag and leave with it, so a
 * response's head and the start of its body make one segment instead of a small one of their own. The JDK has no way
 * to pass the flag.
 */
public final class SendMore {
    private static final int MSG_MORE = 0x8000;
    /** What {@link #send} answers when a non-blocking socket has no room: nothing was sent. */
    public static final int SOCKET_FULL = -1;

    private SendMore() {
    }

    /** Whether it can run here: the shim bound, and the JDK's socket descriptors reachable ({@link Fds}). */
    public static boolean available() {
        return NativeSupport.available() && Fds.unavailableReason() == null;
    }

    /**
     * Sends what remains of {@code src}, or as much as the socket takes, advancing its position. Returns the bytes
     * sent, or {@link #SOCKET_FULL} on EAGAIN from a non-blocking socket. EINTR is retried.
     */
    public static int send(SocketChannel socket, ByteBuffer src) throws NativeException {
        NativeSupport.check();
        return send(Fds.of(socket), src);
    }

    /** The same on a socket known by its descriptor (an event loop's channel); needs only the shim. */
    public static int send(int fd, ByteBuffer src) throws NativeException {
        NativeSupport.check();
        byte[] bytes = new byte[src.remaining()];
        src.get(src.position(), bytes);
        while (true) {
            try {
                int sent = (int) Libc.send(fd, bytes, bytes.length, MSG_MORE);
                src.position(src.position() + sent);
                return sent;
            } catch (LastErrorException e) {
                if (e.getErrorCode() == Errno.EINTR) {
                    continue;
                }
                if (e.getErrorCode() == Errno.EAGAIN) {
                    return SOCKET_FULL;
                }
                throw NativeException.of("send(socket fd " + fd + ", MSG_MORE)", e);
            }
        }
    }
}
