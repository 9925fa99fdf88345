package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;

/**
 * Bytes that arrived on a connected socket and wait to be read, in one {@code ioctl(SIOCINQ)}. A transfer whose
 * body stands still while such bytes wait is held up by its reader, not by its peer: the server's stall watch asks
 * this before it closes an upload whose client, as far as the socket's counters tell, stopped sending.
 */
public final class UnreadBytes {
    /** {@code SIOCINQ}, the same request as {@code FIONREAD}. */
    private static final long SIOCINQ = 0x541B;

    private UnreadBytes() {
    }

    /** Bytes waiting in the receive queue of the connected TCP socket {@code fd}. */
    public static int of(int fd) throws NativeException {
        NativeSupport.check();
        int[] count = new int[1];
        try {
            Libc.ioctl(fd, SIOCINQ, count);
        } catch (LastErrorException e) {
            throw NativeException.of("ioctl(SIOCINQ)", e);
        }
        return count[0];
    }
}
