package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * JNA direct mapping of the libc calls the suite needs. Direct mapping (not interface mapping) keeps the
 * per-call overhead near a JNI call, which matters when the calls sit on a benchmarked path.
 * Methods throw {@link LastErrorException} on failure; callers turn that into {@link NativeException}.
 * <p>
 * Pointers are passed as {@code long} (the shim is x86_64 only, see {@link NativeSupport}): no {@code Pointer}
 * object per call. Out-structs are primitive arrays, which direct mapping copies in and out. Constants and
 * struct offsets are x86_64 Linux values.
 */
final class Libc {
    static final int RUSAGE_CHILDREN = -1;
    static final int RUSAGE_SELF = 0;
    static final int RUSAGE_THREAD = 1;

    static final int O_RDONLY = 0;
    static final int O_WRONLY = 01;
    static final int O_RDWR = 02;
    static final int O_EXCL = 0200;
    static final int O_CREAT = 0100;
    static final int O_TRUNC = 01000;
    static final int O_DIRECT = 040000;
    static final int O_CLOEXEC = 02000000;
    static final int O_NONBLOCK = 04000;
    static final int O_NOFOLLOW = 0400000;
    static final int O_DIRECTORY = 0200000;
    static final int O_PATH = 010000000;

    static final int AT_EMPTY_PATH = 0x1000;
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    static final int STATX_TYPE = 0x1;
    static final int STATX_MODE = 0x2;
    static final int STATX_CTIME = 0x80;
    static final int STATX_MTIME = 0x40;
    static final int STATX_INO = 0x100;
    static final int STATX_SIZE = 0x200;
    static final int STATX_DIOALIGN = 0x2000;
    /** sizeof(struct statx); the kernel fills only what it knows, the rest stays zero. */
    static final int STATX_BYTES = 256;
    static final int STATX_MASK_OFFSET = 0;
    static final int STATX_MODE_OFFSET = 28;
    static final int STATX_INO_OFFSET = 32;
    static final int STATX_SIZE_OFFSET = 40;
    static final int STATX_CTIME_OFFSET = 96;
    static final int STATX_MTIME_OFFSET = 112;
    /** _IOR('v', 1, long): the inode's generation number, new for every inode a file system creates. */
    static final long FS_IOC_GETVERSION = 0x80087601L;
    static final int STATX_DEV_MAJOR_OFFSET = 136;
    static final int STATX_DEV_MINOR_OFFSET = 140;
    static final int STATX_DIO_MEM_ALIGN_OFFSET = 152;
    static final int STATX_DIO_OFFSET_ALIGN_OFFSET = 156;

    /** struct statfs is 15 longs: f_type, f_bsize, ... */
    static final int STATFS_LONGS = 15;
    static final int STATFS_TYPE = 0;
    static final int STATFS_BSIZE = 1;

    static final int PROT_READ = 1;
    static final int MAP_SHARED = 1;
    /** madvise(2): never back this range with transparent huge pages (same value on every Linux architecture). */
    static final int MADV_NOHUGEPAGE = 15;

    static final int POSIX_FADV_WILLNEED = 3;
    static final int POSIX_FADV_DONTNEED = 4;

    static final int F_SETPIPE_SZ = 1031;
    static final int F_GETPIPE_SZ = 1032;

    static final int POLLIN = 0x1;
    static final int POLLOUT = 0x4;

    static final int SC_PAGESIZE = 30;

    private static final Throwable LOAD_FAILURE;
    // What the JDK itself uses to turn path strings into bytes for system calls.
    private static final Charset PATH_CHARSET = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));

    static {
        Throwable failure = null;
        // JNA extracts its library when its Native class initialises, on the first line below.
        Path jnaTemp = JnaTempDirectory.claim();
        try {
            Native.register(Libc.class, NativeLibrary.getInstance("c"));
        } catch (Throwable t) {
            failure = t;
        } finally {
            JnaTempDirectory.release(jnaTemp);
        }
        LOAD_FAILURE = failure;
    }

    private Libc() {
    }

    /** Null when libc is bound, else why not (JNA missing its native part, not Linux, ...). */
    static String unavailableReason() {
        return LOAD_FAILURE == null ? null : "JNA could not bind libc: " + LOAD_FAILURE;
    }

    /** The NUL-terminated bytes of a path, encoded as the JDK encodes it for the kernel. */
    static byte[] path(Path path) {
        return path(path.toString());
    }

    /** The NUL-terminated bytes of a path given as text (a name relative to a directory descriptor, say). */
    static byte[] path(String path) {
        byte[] bytes = path.getBytes(PATH_CHARSET);
        return Arrays.copyOf(bytes, bytes.length + 1);
    }

    static native int getrusage(int who, long[] usage) throws LastErrorException;

    static final int RLIMIT_NOFILE = 7;

    /** struct rlimit: rlim_cur, rlim_max (two unsigned longs). */
    static native int getrlimit(int resource, long[] rlimit) throws LastErrorException;

    static native int setrlimit(int resource, long[] rlimit) throws LastErrorException;

    static native int dup(int fd) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;

    static native String strerror(int errnum);

    static native long sysconf(int name);

    /** open(2) is variadic; on x86_64 passing the mode as a fixed third int is ABI-compatible. */
    static native int open(byte[] path, int flags, int mode) throws LastErrorException;

    /** openat(2): {@code path} relative to the directory open as {@code dirfd}; variadic mode as for open. */
    static native int openat(int dirfd, byte[] path, int flags, int mode) throws LastErrorException;

    /** unlinkat(2); without AT_REMOVEDIR in {@code flags} the kernel refuses a directory (EISDIR). */
    static native int unlinkat(int dirfd, byte[] path, int flags) throws LastErrorException;

    /** mkdirat(2): never follows a symlink at the name (EEXIST, like any entry there). */
    static native int mkdirat(int dirfd, byte[] path, int mode) throws LastErrorException;

    /** renameat(2): replaces an entry at the new name that is not a directory, atomically. */
    static native int renameat(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath) throws LastErrorException;

    /** renameat2(2) (glibc 2.28); with {@link #RENAME_NOREPLACE} an entry at the new name fails it (EEXIST) and stays. */
    static native int renameat2(int olddirfd, byte[] oldpath, int newdirfd, byte[] newpath, int flags) throws LastErrorException;

    static final int RENAME_NOREPLACE = 1;

    static native long pread64(int fd, long buf, long count, long offset) throws LastErrorException;

    static native long pwrite64(int fd, long buf, long count, long offset) throws LastErrorException;

    /**
     * preadv2(2) (glibc 2.26, Linux 4.6): {@code iov} is the struct iovec array as longs (base, length, ...), which
     * direct mapping copies to native memory; {@code flags} are RWF_* bits, per call.
     */
    static native long preadv2(int fd, long[] iov, int iovcnt, long offset, int flags) throws LastErrorException;

    /** ioctl(2) is variadic; the request is an unsigned long and the argument a pointer: both full registers. */
    static native int ioctl(int fd, long request, int[] arg) throws LastErrorException;

    static native int fsync(int fd) throws LastErrorException;

    static final int IPPROTO_TCP = 6;

    static native long send(int fd, byte[] buf, long length, int flags) throws LastErrorException;

    static native int setsockopt(int fd, int level, int name, int[] value, int length) throws LastErrorException;

    /** setsockopt(2) with a string value (TCP_ULP's name, not NUL-terminated: the kernel takes {@code length} bytes). */
    static native int setsockopt(int fd, int level, int name, byte[] value, int length) throws LastErrorException;

    /** getsockopt(2); {@code length} is the in/out socklen_t. */
    static native int getsockopt(int fd, int level, int name, byte[] value, int[] length) throws LastErrorException;

    static native int fdatasync(int fd) throws LastErrorException;

    /** sync_file_range(2); offset and nbytes are off64_t, 0 and 0 meaning the whole file. */
    static native int sync_file_range(int fd, long offset, long nbytes, int flags) throws LastErrorException;

    static final int SYNC_FILE_RANGE_WAIT_BEFORE = 1;
    static final int SYNC_FILE_RANGE_WRITE = 2;
    static final int SYNC_FILE_RANGE_WAIT_AFTER = 4;

    static native int syncfs(int fd) throws LastErrorException;

    static native int ftruncate(int fd, long length) throws LastErrorException;

    static native int statx(int dirfd, byte[] path, int flags, int mask, byte[] statx) throws LastErrorException;

    static native int statfs(byte[] path, long[] statfs) throws LastErrorException;

    static native int fstatfs(int fd, long[] statfs) throws LastErrorException;

    static native long mmap(long addr, long length, int prot, int flags, int fd, long offset) throws LastErrorException;

    static native int munmap(long addr, long length) throws LastErrorException;

    static native int madvise(long addr, long length, int advice) throws LastErrorException;

    static native int mincore(long addr, long length, byte[] vec) throws LastErrorException;

    /** Returns the error number instead of setting errno, hence no LastErrorException. */
    static native int posix_fadvise(int fd, long offset, long len, int advice);

    static native int pipe2(int[] fds, int flags) throws LastErrorException;

    /** fcntl(2) is variadic and glibc reads its argument as a full register (unsigned long): pass a long. */
    static native int fcntl(int fd, int cmd, long arg) throws LastErrorException;

    /** A null offset array passes NULL: the fd's own file position is used (required for pipes and sockets). */
    static native long splice(int fdIn, long[] offIn, int fdOut, long[] offOut, long len, int flags)
            throws LastErrorException;

    /** sendfile64(2): the offset array is read and advanced by the kernel; the file's own position is left alone. */
    static native long sendfile64(int outFd, int inFd, long[] offset, long count) throws LastErrorException;

    /** struct pollfd is {int fd; short events; short revents}: two ints, events in the low half of the second. */
    static native int poll(int[] fds, long nfds, int timeoutMillis) throws LastErrorException;
}
