package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/** The fields of {@code statx(2)} the shim reads. Fields whose bit is missing from {@code mask} are zero. */
record Statx(int mask, int mode, long inode, long size, long mtimeNanos, long ctimeNanos, int devMajor, int devMinor, int dioMemAlign,
             int dioOffsetAlign) {
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;

    private static final int AT_FDCWD = -100;
    private static final byte[] EMPTY_PATH = {0};

    /** The open file {@code fd} (AT_EMPTY_PATH). */
    static Statx of(int fd, int mask) throws LastErrorException {
        return call(fd, EMPTY_PATH, Libc.AT_EMPTY_PATH, mask);
    }

    /** The file at {@code path}, following symlinks. */
    static Statx of(Path path, int mask) throws LastErrorException {
        return call(AT_FDCWD, Libc.path(path), 0, mask);
    }

    boolean regular() {
        return (mode & S_IFMT) == S_IFREG;
    }

    boolean has(int bit) {
        return (mask & bit) == bit;
    }

    private static Statx call(int dirfd, byte[] path, int flags, int mask) throws LastErrorException {
        byte[] raw = new byte[Libc.STATX_BYTES];
        Libc.statx(dirfd, path, flags, mask, raw);
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        long mtime = nanos(b, Libc.STATX_MTIME_OFFSET);
        long ctime = nanos(b, Libc.STATX_CTIME_OFFSET);
        return new Statx(b.getInt(Libc.STATX_MASK_OFFSET), Short.toUnsignedInt(b.getShort(Libc.STATX_MODE_OFFSET)),
                b.getLong(Libc.STATX_INO_OFFSET), b.getLong(Libc.STATX_SIZE_OFFSET), mtime, ctime,
                b.getInt(Libc.STATX_DEV_MAJOR_OFFSET), b.getInt(Libc.STATX_DEV_MINOR_OFFSET),
                b.getInt(Libc.STATX_DIO_MEM_ALIGN_OFFSET), b.getInt(Libc.STATX_DIO_OFFSET_ALIGN_OFFSET));
    }

    /** struct statx_timestamp: i64 seconds, u32 nanoseconds. */
    private static long nanos(ByteBuffer b, int offset) {
        return b.getLong(offset) * 1_000_000_000L + Integer.toUnsignedLong(b.getInt(offset + 8));
    }
}
