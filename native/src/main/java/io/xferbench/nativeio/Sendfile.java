package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;

/**
 * sendfile64(2) called directly: file pages to a socket inside the kernel, one call per chunk the socket takes. What
 * the JDK's {@code FileChannel.transferTo} ends in, without what it asks first on every call (the file's size by
 * fstat(2), and copy_file_range(2), refused with EINVAL when the target is a socket).
 */
public final class Sendfile {
    /** What {@link #send} answers when a non-blocking socket has no room: nothing was sent, wait and call again. */
    public static final long SOCKET_FULL = -1;

    private Sendfile() {
    }

    /**
     * Sends up to {@code count} bytes of the file from {@code position} (the file's own position is not used or
     * changed). Returns the bytes sent (fewer than asked when the socket took fewer), 0 when {@code position} is at or
     * past the end of the file, or {@link #SOCKET_FULL} on EAGAIN from a non-blocking socket. EINTR is retried.
     */
    public static long send(int socketFd, int fileFd, long position, long count) throws NativeException {
        NativeSupport.check();
        long[] offset = {position};
        while (true) {
            try {
                return Libc.sendfile64(socketFd, fileFd, offset, count);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == Errno.EINTR) {
                    continue;
                }
                if (e.getErrorCode() == Errno.EAGAIN) {
                    return SOCKET_FULL;
                }
                throw NativeException.of("sendfile64(socket fd " + socketFd + ", file fd " + fileFd + " at " + position
                        + ", " + count + " bytes)", e);
            }
        }
    }
}
