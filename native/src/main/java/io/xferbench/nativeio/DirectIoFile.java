package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A file opened with O_DIRECT: reads and writes bypass the page cache and go straight between the buffer and
 * the device. The kernel demands aligned buffer addresses, lengths and file offsets; this class checks them
 * before each call and says which one is wrong, instead of passing EINVAL through (or, worse, having the file
 * system fall back to buffered I/O unnoticed). Positional calls may run concurrently; {@link #close()} must not
 * race them (the fd number could be reused).
 */
public final class DirectIoFile implements AutoCloseable {
    private static final String DIOALIGN_SOURCE = "statx STATX_DIOALIGN";

    private final Path path;
    private final int fd;
    private final int memoryAlignment;
    private final int offsetAlignment;
    private final String alignmentSource;
    private boolean closed;

    private DirectIoFile(Path path, int fd, int memoryAlignment, int offsetAlignment, String alignmentSource) {
        this.path = path;
        this.fd = fd;
        this.memoryAlignment = memoryAlignment;
        this.offsetAlignment = offsetAlignment;
        this.alignmentSource = alignmentSource;
    }

    /** O_RDONLY | O_DIRECT | O_CLOEXEC. */
    public static DirectIoFile openRead(Path path) throws NativeException {
        return open(path, Libc.O_RDONLY | Libc.O_DIRECT | Libc.O_CLOEXEC, "O_RDONLY|O_DIRECT");
    }

    /**
     * O_WRONLY | O_DIRECT | O_CLOEXEC, plus O_CREAT | O_TRUNC (mode 0644) when {@code create}; without it the
     * file must exist and keeps its contents. O_DIRECT writes whole aligned blocks: write the tail block padded,
     * then {@link #truncate} to the real length.
     */
    public static DirectIoFile openWrite(Path path, boolean create) throws NativeException {
        return create
                ? open(path, Libc.O_WRONLY | Libc.O_CREAT | Libc.O_TRUNC | Libc.O_DIRECT | Libc.O_CLOEXEC,
                        "O_WRONLY|O_CREAT|O_TRUNC|O_DIRECT")
                : open(path, Libc.O_WRONLY | Libc.O_DIRECT | Libc.O_CLOEXEC, "O_WRONLY|O_DIRECT");
    }

    private static DirectIoFile open(Path path, int flags, String flagNames) throws NativeException {
        NativeSupport.check();
        String call = "open(" + path + ", " + flagNames + ")";
        int fd;
        try {
            fd = Libc.open(Libc.path(path), flags, 0644);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == Errno.EINVAL) {
                // open(2) checks O_DIRECT support when it opens the file; with these (valid) flags that
                // check is what EINVAL means.
                throw new NativeException(call, Errno.EINVAL, "file system " + FileSystemType.of(path)
                        + " refuses O_DIRECT; not falling back to buffered I/O"
                        + ((flags & Libc.O_CREAT) != 0 ? " (the kernel may have created the empty file first)" : ""));
            }
            throw NativeException.of(call, e);
        }
        try {
            return withAlignment(path, fd, call);
        } catch (NativeException | RuntimeException e) {
            try {
                Libc.close(fd);
            } catch (LastErrorException ignored) {
                // The first failure is the one worth reporting.
            }
            throw e;
        }
    }

    private static DirectIoFile withAlignment(Path path, int fd, String call) throws NativeException {
        try {
            Statx st = Statx.of(fd, Libc.STATX_DIOALIGN);
            if (st.has(Libc.STATX_DIOALIGN)) {
                if (st.dioMemAlign() == 0 || st.dioOffsetAlign() == 0) {
                    // open(2) accepted O_DIRECT, but the file system says this file cannot do it (e.g. ext4
                    // data=journal or inline data): its I/O would be buffered after all.
                    throw new NativeException(call, Errno.EINVAL, "file system " + FileSystemType.of(path)
                            + " reports no direct I/O support for this file (statx STATX_DIOALIGN = 0); "
                            + "not falling back to buffered I/O");
                }
                return new DirectIoFile(path, fd, st.dioMemAlign(), st.dioOffsetAlign(), DIOALIGN_SOURCE);
            }
            // Kernel older than 6.1, or a file system that does not report it (tmpfs): the file system block
            // size is a multiple of the logical block size on every common setup, so it is a safe, coarse bound.
            long[] statfs = new long[Libc.STATFS_LONGS];
            Libc.fstatfs(fd, statfs);
            int blockSize = (int) statfs[Libc.STATFS_BSIZE];
            return new DirectIoFile(path, fd, blockSize, blockSize, "fallback: fstatfs f_bsize (statx did not report "
                    + "STATX_DIOALIGN on " + FileSystemType.of(path) + ")");
        } catch (LastErrorException e) {
            throw NativeException.of("statx/fstatfs(" + path + ")", e);
        }
    }

    public Path path() {
        return path;
    }

    public int fd() {
        checkOpen();
        return fd;
    }

    /** Required alignment of the buffer address (stx_dio_mem_align). */
    public int memoryAlignment() {
        return memoryAlignment;
    }

    /** Required alignment of file offsets and lengths (stx_dio_offset_align). */
    public int offsetAlignment() {
        return offsetAlignment;
    }

    /** One alignment that satisfies both address and offset/length rules. */
    public int alignment() {
        return Math.max(memoryAlignment, offsetAlignment);
    }

    /** "statx STATX_DIOALIGN", or "fallback: ..." saying where the alignment came from instead. */
    public String alignmentSource() {
        return alignmentSource;
    }

    /**
     * Reads into {@code dst} from its position up to its limit, starting at file {@code offset}, and advances
     * the position by the count. Returns the count: short at end of file (an aligned read over the last partial
     * block returns just the bytes that exist), 0 at or past it.
     */
    public int pread(ByteBuffer dst, long offset) throws NativeException {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException(describe("pread", dst, offset) + ": the buffer is read-only");
        }
        long address = checkAligned("pread", dst, offset);
        while (true) {
            try {
                int n = (int) Libc.pread64(fd, address, dst.remaining(), offset);
                dst.position(dst.position() + n);
                return n;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != Errno.EINTR) {
                    throw NativeException.of(describe("pread", dst, offset), e);
                }
            }
        }
    }

    /** Writes {@code src} from its position up to its limit at file {@code offset}; advances the position by the count. */
    public int pwrite(ByteBuffer src, long offset) throws NativeException {
        long address = checkAligned("pwrite", src, offset);
        while (true) {
            try {
                int n = (int) Libc.pwrite64(fd, address, src.remaining(), offset);
                src.position(src.position() + n);
                return n;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != Errno.EINTR) {
                    throw NativeException.of(describe("pwrite", src, offset), e);
                }
            }
        }
    }

    public long size() throws NativeException {
        checkOpen();
        try {
            return Statx.of(fd, Libc.STATX_SIZE).size();
        } catch (LastErrorException e) {
            throw NativeException.of("statx(" + path + ", STATX_SIZE)", e);
        }
    }

    /** ftruncate(2): sets the length, e.g. to cut the padding off a last block written whole. */
    public void truncate(long size) throws NativeException {
        checkOpen();
        try {
            Libc.ftruncate(fd, size);
        } catch (LastErrorException e) {
            throw NativeException.of("ftruncate(" + path + ", " + size + ")", e);
        }
    }

    /** fsync(2): O_DIRECT skips the page cache but not the device's write cache, nor metadata updates. */
    public void sync() throws NativeException {
        checkOpen();
        try {
            Libc.fsync(fd);
        } catch (LastErrorException e) {
            throw NativeException.of("fsync(" + path + ")", e);
        }
    }

    @Override
    public void close() throws NativeException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Libc.close(fd);
        } catch (LastErrorException e) {
            throw NativeException.of("close(" + path + ")", e);
        }
    }

    @Override
    public String toString() {
        return "DirectIoFile[" + path + ", fd " + fd + ", memory alignment " + memoryAlignment
                + ", offset alignment " + offsetAlignment + " (" + alignmentSource + ")" + (closed ? ", closed" : "") + "]";
    }

    /** The address of the buffer's position, after checking everything O_DIRECT would reject with EINVAL. */
    private long checkAligned(String call, ByteBuffer buffer, long offset) {
        checkOpen();
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException(describe(call, buffer, offset)
                    + ": O_DIRECT needs a direct buffer, got a heap buffer (use AlignedBuffers.allocate)");
        }
        long address = AlignedBuffers.address(buffer) + buffer.position();
        List<String> problems = new ArrayList<>(3);
        if (address % memoryAlignment != 0) {
            problems.add("buffer address 0x" + Long.toHexString(address) + " is misaligned (address % "
                    + memoryAlignment + " = " + address % memoryAlignment + ", memory alignment " + memoryAlignment + ")");
        }
        if (buffer.remaining() % offsetAlignment != 0) {
            problems.add("length " + buffer.remaining() + " is not a multiple of the offset alignment " + offsetAlignment);
        }
        if (offset < 0 || offset % offsetAlignment != 0) {
            problems.add("file offset " + offset + " is " + (offset < 0 ? "negative" : "misaligned (offset % "
                    + offsetAlignment + " = " + offset % offsetAlignment + ", offset alignment " + offsetAlignment + ")"));
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(describe(call, buffer, offset) + ": " + String.join("; ", problems)
                    + " [alignment from " + alignmentSource + "]");
        }
        return address;
    }

    private String describe(String call, ByteBuffer buffer, long offset) {
        return "O_DIRECT " + call + "(" + path + ", " + buffer.remaining() + " bytes at offset " + offset + ")";
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(path + " is closed");
        }
    }
}
