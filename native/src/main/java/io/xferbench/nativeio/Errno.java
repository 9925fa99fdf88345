package io.xferbench.nativeio;

import java.util.Map;

/** Symbolic names of the Linux errno values the suite can meet (x86_64 numbering). */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENOTDIR = 20;
    public static final int EISDIR = 21;
    public static final int EINVAL = 22;
    public static final int ENFILE = 23;
    public static final int EMFILE = 24;
    public static final int ENOTTY = 25;
    public static final int EFBIG = 27;
    public static final int ENOSPC = 28;
    public static final int ESPIPE = 29;
    public static final int EROFS = 30;
    public static final int EPIPE = 32;
    public static final int ENOSYS = 38;
    public static final int ENOTSOCK = 88;
    public static final int ENOPROTOOPT = 92;
    public static final int EOPNOTSUPP = 95;
    public static final int ECONNRESET = 104;
    public static final int ENOTCONN = 107;
    public static final int ELOOP = 40;
    public static final int ENOTEMPTY = 39;
    public static final int EDQUOT = 122;
    public static final int ECANCELED = 125;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(EPERM, "EPERM"), Map.entry(ENOENT, "ENOENT"), Map.entry(EINTR, "EINTR"), Map.entry(EIO, "EIO"), Map.entry(ENXIO, "ENXIO"), Map.entry(ELOOP, "ELOOP"), Map.entry(ECANCELED, "ECANCELED"),
            Map.entry(EBADF, "EBADF"), Map.entry(EAGAIN, "EAGAIN"), Map.entry(ENOMEM, "ENOMEM"),
            Map.entry(EACCES, "EACCES"), Map.entry(EFAULT, "EFAULT"), Map.entry(EBUSY, "EBUSY"),
            Map.entry(EEXIST, "EEXIST"), Map.entry(ENOTDIR, "ENOTDIR"), Map.entry(EISDIR, "EISDIR"),
            Map.entry(EINVAL, "EINVAL"), Map.entry(ENFILE, "ENFILE"), Map.entry(EMFILE, "EMFILE"), Map.entry(ENOTTY, "ENOTTY"), Map.entry(EFBIG, "EFBIG"),
            Map.entry(ENOSPC, "ENOSPC"), Map.entry(ESPIPE, "ESPIPE"), Map.entry(EROFS, "EROFS"),
            Map.entry(EPIPE, "EPIPE"), Map.entry(ENOSYS, "ENOSYS"), Map.entry(ENOTSOCK, "ENOTSOCK"), Map.entry(ENOPROTOOPT, "ENOPROTOOPT"), Map.entry(ENOTCONN, "ENOTCONN"),
            Map.entry(EOPNOTSUPP, "EOPNOTSUPP"), Map.entry(ECONNRESET, "ECONNRESET"), Map.entry(EDQUOT, "EDQUOT"));

    private Errno() {
    }

    public static String name(int errno) {
        return NAMES.getOrDefault(errno, "errno " + errno);
    }

    /** The C library's text for errno, e.g. "Invalid argument". */
    public static String describe(int errno) {
        if (Libc.unavailableReason() != null) {
            return "errno " + errno;
        }
        return Libc.strerror(errno);
    }
}
