package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.IOException;

/**
 * Whether this kernel can encrypt TLS records itself (kernel TLS, kTLS: what nginx's {@code ssl_sendfile} and any
 * sendfile of an encrypted body need), asked with the one call that decides it: {@code setsockopt(fd, SOL_TCP, TCP_ULP,
 * "tls")} on a connected TCP socket. The kernel attaches its "tls" upper layer protocol only when it has one: built in
 * ({@code CONFIG_TLS=y}) or the {@code tls} module loaded. For a process with CAP_NET_ADMIN the kernel first tries to
 * load the module itself ({@code request_module("tcp-ulp-tls")}), so as root the probe loads it where it is installed.
 *
 * <p>On success the socket is a kTLS socket without keys: it still sends clear text, but takes no other upper layer
 * protocol. Probe a socket of its own ({@link KernelTlsProbe} does). Nothing here sends through kTLS: with no kernel
 * that has it, such code could not be tested.
 */
public final class KernelTls {
    /** include/uapi/linux/tcp.h. */
    static final int TCP_ULP = 31;
    /** The ULP's name; the kernel copies {@code optlen} bytes, no NUL needed. */
    private static final byte[] TLS = {'t', 'l', 's'};

    private KernelTls() {
    }

    /**
     * The kernel's answer.
     *
     * @param errno             the errno of a refusal; 0 when available, or when the reason is not the kernel's (no shim)
     * @param unavailableReason null when the kernel attached "tls", else why not, one line
     */
    public record Support(int errno, String unavailableReason) {
        static final Support AVAILABLE = new Support(0, null);

        public boolean available() {
            return unavailableReason == null;
        }

        /** {@code available} or {@code unavailable: REASON}, as the environment reports write a capability. */
        public String describe() {
            return available() ? "available" : "unavailable: " + unavailableReason;
        }
    }

    /**
     * The descriptor is not a connected TCP socket (ENOTSOCK, ENOTCONN, EOPNOTSUPP): a wrong use, which says nothing
     * about the kernel.
     */
    public static final class NotATcpConnectionException extends IOException {
        private final int errno;

        NotATcpConnectionException(int fd, int errno) {
            super(call(fd) + ": " + Errno.name(errno) + " (" + Errno.describe(errno) + "): fd " + fd + " is not a connected TCP socket");
            this.errno = errno;
        }

        public int errno() {
            return errno;
        }
    }

    /**
     * Attaches the "tls" upper layer protocol to {@code fd}, a connected TCP socket, and says whether the kernel did.
     *
     * @throws NotATcpConnectionException if {@code fd} is no connected TCP socket
     * @throws NativeException            if {@code fd} is not open (EBADF)
     */
    public static Support probe(int fd) throws IOException {
        String shim = NativeSupport.unavailableReason();
        if (shim != null) {
            return new Support(0, shim);
        }
        try {
            Libc.setsockopt(fd, Libc.IPPROTO_TCP, TCP_ULP, TLS, TLS.length);
            return Support.AVAILABLE;
        } catch (LastErrorException e) {
            int errno = e.getErrorCode();
            return switch (errno) {
                case Errno.ENOTSOCK, Errno.ENOTCONN, Errno.EOPNOTSUPP -> throw new NotATcpConnectionException(fd, errno);
                case Errno.EBADF -> throw new NativeException(call(fd), errno);
                default -> new Support(errno, reason(errno));
            };
        }
    }

    /** Why the kernel refused with {@code errno}: {@code TCP_ULP tls: ENOENT, module tls not loaded}. */
    static String reason(int errno) {
        String call = "TCP_ULP tls: " + Errno.name(errno);
        return switch (errno) {
            // No ULP of that name registered, and none loaded on demand (not installed, or no CAP_NET_ADMIN to ask).
            case Errno.ENOENT -> call + ", module tls not loaded";
            // TCP_ULP itself is unknown: Linux before 4.13.
            case Errno.ENOPROTOOPT -> call + ", the kernel has no TCP upper layer protocols (Linux before 4.13)";
            case Errno.EEXIST -> call + ", the socket has an upper layer protocol already";
            default -> call + " (" + Errno.describe(errno) + ")";
        };
    }

    private static String call(int fd) {
        return "setsockopt(" + fd + ", SOL_TCP, TCP_ULP, \"tls\")";
    }
}
