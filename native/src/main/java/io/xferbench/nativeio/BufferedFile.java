package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A plain (page-cache) file read with pread64(2) through the shim. It exists to measure what a JNA call
 * costs next to {@code FileChannel.read} on the same warm block; the suite's I/O methods use the JDK for
 * buffered reads and the shim for what the JDK cannot do (O_DIRECT with statx alignment, splice, mincore).
 */
public final class BufferedFile implements AutoCloseable {
    private final Path path;
    private final int fd;

    private BufferedFile(Path path, int fd) {
        this.path = path;
        this.fd = fd;
    }

    public static BufferedFile openRead(Path path) throws NativeException {
        NativeSupport.check();
        byte[] name = (path.toString() + "\0").getBytes(StandardCharsets.UTF_8);
        try {
            return new BufferedFile(path, Libc.open(name, Libc.O_RDONLY | Libc.O_CLOEXEC, 0));
        } catch (LastErrorException e) {
            throw NativeException.of("open(" + path + ", O_RDONLY)", e);
        }
    }

    /** Reads into a direct {@code dst} from its position to its limit at {@code offset}; advances the position. */
    public int pread(ByteBuffer dst, long offset) throws NativeException {
        if (!dst.isDirect()) {
            throw new IllegalArgumentException("pread needs a direct buffer, got a heap buffer");
        }
        try {
            int n = (int) Libc.pread64(fd, AlignedBuffers.address(dst) + dst.position(), dst.remaining(), offset);
            dst.position(dst.position() + n);
            return n;
        } catch (LastErrorException e) {
            throw NativeException.of("pread(" + path + " at " + offset + ")", e);
        }
    }

    /**
     * posix_fadvise(POSIX_FADV_DONTNEED) on {@code [offset, offset + length)}: drops those clean pages from the page
     * cache, so a reader that advises behind itself streams a file without evicting anyone else's pages.
     */
    public void dontNeed(long offset, long length) throws NativeException {
        int error = Libc.posix_fadvise(fd, offset, length, Libc.POSIX_FADV_DONTNEED);
        if (error != 0) {
            throw new NativeException("posix_fadvise(" + path + ", " + offset + ", " + length + ", DONTNEED)", error);
        }
    }

    @Override
    public void close() throws NativeException {
        try {
            Libc.close(fd);
        } catch (LastErrorException e) {
            throw NativeException.of("close(" + path + ")", e);
        }
    }
}
