package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;

/**
 * What waits in a connected TCP socket's queues, one {@code ioctl(2)} each: bytes that arrived and wait to be read
 * ({@code SIOCINQ}), and bytes written that the peer has not acknowledged yet ({@code SIOCOUTQ}). The server's stall
 * watch asks both when a body's byte count stood still, to tell whose stall it is: bytes waiting for the server while
 * none wait for the client mean the server is behind (an upload's chunk queued for a busy file pool, a disk that
 * stalls a download), not the client.
 */
public final class SocketQueues {
    /** {@code SIOCINQ}, the same request as {@code FIONREAD}. */
    private static final long SIOCINQ = 0x541B;
    /** {@code SIOCOUTQ}, the same request as {@code TIOCOUTQ}. */
    private static final long SIOCOUTQ = 0x5411;

    private SocketQueues() {
    }

    /** Bytes waiting in the receive queue of the connected TCP socket {@code fd}. */
    public static int unread(int fd) throws NativeException {
        return ioctl(fd, SIOCINQ, "ioctl(SIOCINQ)");
    }

    /** Bytes in the send queue of {@code fd} that the peer has not acknowledged (sent or not). */
    public static int unacknowledged(int fd) throws NativeException {
        return ioctl(fd, SIOCOUTQ, "ioctl(SIOCOUTQ)");
    }

    private static int ioctl(int fd, long request, String call) throws NativeException {
        NativeSupport.check();
        int[] count = new int[1];
        try {
            Libc.ioctl(fd, request, count);
        } catch (LastErrorException e) {
            throw NativeException.of(call, e);
        }
        return count[0];
    }
}
