package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;

/**
 * preadv2(2) with one iovec: a positional read that carries per-call {@code RWF_*} flags, which pread64(2) and
 * {@code FileChannel.read} cannot. The suite needs it for {@link #RWF_DONTCACHE}: a buffered read (read-ahead, no
 * alignment rules) whose pages leave the page cache once copied out, where O_DIRECT would bypass the cache altogether.
 * The file's own position is neither used nor moved.
 */
public final class Preadv2 {
    /**
     * RWF_DONTCACHE, linux/fs.h since 6.14. Not 0x40: that bit is RWF_ATOMIC, which Debian's fio 3.33 sets for its
     * {@code uncached} option (written against an earlier draft of this flag).
     */
    public static final int RWF_DONTCACHE = 0x80;

    private Preadv2() {
    }

    /**
     * Reads into the direct {@code dst} from its position up to its limit, starting at file {@code offset}, with
     * {@code flags}; advances the position by the count and returns it: short at end of file, 0 at or past it. EINTR
     * is retried.
     *
     * @throws NativeException with errno EOPNOTSUPP when the kernel or the file's file system refuses a flag (see
     *                         {@link DontCacheProbe} for which), or the call's other errors (EBADF, EINVAL for a
     *                         negative offset, EIO, ...)
     */
    public static int read(int fd, ByteBuffer dst, long offset, int flags) throws NativeException {
        if (!dst.isDirect()) {
            throw new IllegalArgumentException("preadv2 needs a direct buffer, got a heap buffer");
        }
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("preadv2 into a read-only buffer");
        }
        NativeSupport.check();
        long[] iov = {AlignedBuffers.address(dst) + dst.position(), dst.remaining()};
        while (true) {
            try {
                int n = (int) Libc.preadv2(fd, iov, 1, offset, flags);
                dst.position(dst.position() + n);
                return n;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != Errno.EINTR) {
                    throw NativeException.of("preadv2(fd " + fd + ", " + dst.remaining() + " bytes at offset " + offset
                            + ", " + flagNames(flags) + ")", e);
                }
            }
        }
    }

    static String flagNames(int flags) {
        if (flags == 0) {
            return "no flags";
        }
        if (flags == RWF_DONTCACHE) {
            return "RWF_DONTCACHE";
        }
        return (flags & RWF_DONTCACHE) != 0 ? "RWF_DONTCACHE|0x" + Integer.toHexString(flags & ~RWF_DONTCACHE)
                : "0x" + Integer.toHexString(flags);
    }
}
