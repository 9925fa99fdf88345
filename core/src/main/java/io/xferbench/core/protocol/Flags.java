package io.xferbench.core.protocol;

/** Bits of {@link Request#flags()}. */
public final class Flags {
    /** The receiver checks the CRC32C of what arrived (else only the byte count). */
    public static final int VERIFY_CRC32C = 1;
    /** Evict the file from the page cache before the transfer. */
    public static final int CACHE_COLD = 1 << 1;
    /** Read the file into the page cache before the transfer. */
    public static final int CACHE_WARM = 1 << 2;
    /** Upload: fsync before the rename into place. */
    public static final int FSYNC = 1 << 3;
    /** Use a deliberately misaligned direct buffer (page + 16) to show the penalty. */
    public static final int UNALIGNED = 1 << 4;
    /**
     * MEASURE_BEGIN: do not start perf on the server for this window (the caller counts its syscalls from outside,
     * per cgroup, and the server's own perf would be counted there as the server's work).
     */
    public static final int NO_SYSCALL_COUNT = 1 << 5;

    /**
     * DOWNLOAD: the client opens a TLS session right after the answer's head (docs/tls.md): set exactly for the methods
     * whose traits say {@code tls}, so a client that does not know a method is TLS is refused at once instead of
     * waiting on a body that waits on its handshake.
     */
    public static final int TLS = 1 << 6;

    public static final int KNOWN = VERIFY_CRC32C | CACHE_COLD | CACHE_WARM | FSYNC | UNALIGNED | NO_SYSCALL_COUNT | TLS;

    private Flags() {
    }

    public static boolean has(int flags, int bit) {
        return (flags & bit) != 0;
    }
}
