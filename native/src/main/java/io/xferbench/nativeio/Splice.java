package io.xferbench.nativeio;

import com.sun.jna.LastErrorException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Raw splice(2), without Netty. splice moves pages between a pipe and another fd inside the kernel, so a
 * file-to-socket or socket-to-file copy goes through a pipe in two hops: source → pipe → destination.
 * <p>
 * The loops work on blocking and non-blocking fds: with blocking fds (the JDK's default for channels used by
 * platform threads) the kernel never returns EAGAIN; with a non-blocking socket they wait in poll(2) for it to
 * become ready and retry. EINTR is retried. After an exception the pipe may still hold bytes: close it.
 */
public final class Splice {
    /** A hint to move pages rather than copy; the kernel has ignored it since 2.6.21, but it costs nothing. */
    public static final int SPLICE_F_MOVE = 1;
    /** Do not block on the pipe (the other fd's own O_NONBLOCK still applies). */
    public static final int SPLICE_F_NONBLOCK = 2;
    /** More data follows: for a socket, like MSG_MORE (hold back a partial segment). */
    public static final int SPLICE_F_MORE = 4;

    private static final Path PIPE_MAX_SIZE = Path.of("/proc/sys/fs/pipe-max-size");
    private static final int NO_POLL = -1;

    private Splice() {
    }

    /** An anonymous pipe (pipe2 with O_CLOEXEC) to splice through. */
    public static final class Pipe implements AutoCloseable {
        private static volatile int maxSize;

        private final int readFd;
        private final int writeFd;
        private int size;
        private boolean closed;

        private Pipe(int readFd, int writeFd, int size) {
            this.readFd = readFd;
            this.writeFd = writeFd;
            this.size = size;
        }

        public static Pipe open() throws NativeException {
            NativeSupport.check();
            int[] fds = new int[2];
            try {
                Libc.pipe2(fds, Libc.O_CLOEXEC);
            } catch (LastErrorException e) {
                throw NativeException.of("pipe2(O_CLOEXEC)", e);
            }
            try {
                return new Pipe(fds[0], fds[1], Libc.fcntl(fds[0], Libc.F_GETPIPE_SZ, 0));
            } catch (LastErrorException e) {
                closeBoth(fds[0], fds[1]);
                throw NativeException.of("fcntl(pipe, F_GETPIPE_SZ)", e);
            }
        }

        /**
         * The most an unprivileged process may ask for, from /proc/sys/fs/pipe-max-size, read once per process: read
         * per {@link #resize} it added openat + read + close to every resized pipe, which is not the cost of a pipe.
         */
        public static int maxSize() throws IOException {
            int max = maxSize;
            if (max == 0) {
                // One read into a roomy buffer: a sysctl file answers only the first read, and Files.readString
                // (JDK 25) reads 1 byte first from a file whose size is 0, so it would see "1".
                try (FileChannel channel = FileChannel.open(PIPE_MAX_SIZE)) {
                    ByteBuffer buffer = ByteBuffer.allocate(32);
                    channel.read(buffer);
                    max = Integer.parseInt(new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim());
                }
                maxSize = max;
            }
            return max;
        }

        public int readFd() {
            checkOpen();
            return readFd;
        }

        public int writeFd() {
            checkOpen();
            return writeFd;
        }

        /** Capacity in bytes, as F_GETPIPE_SZ last reported it (64 KiB for a new pipe on 4 KiB pages). */
        public int size() {
            return size;
        }

        /**
         * Asks for {@code bytes} of capacity (F_SETPIPE_SZ), capped at {@link #maxSize()} even for root, who
         * could exceed it; the kernel rounds up to a power-of-two number of pages. Returns the capacity the
         * kernel reports afterwards (F_GETPIPE_SZ). Shrinking below the bytes the pipe holds fails with EBUSY.
         */
        public int resize(int bytes) throws IOException {
            checkOpen();
            if (bytes <= 0) {
                throw new IllegalArgumentException("pipe size " + bytes + " <= 0");
            }
            int request = Math.min(bytes, maxSize());
            try {
                Libc.fcntl(writeFd, Libc.F_SETPIPE_SZ, request);
                size = Libc.fcntl(writeFd, Libc.F_GETPIPE_SZ, 0);
                return size;
            } catch (LastErrorException e) {
                throw NativeException.of("fcntl(pipe, F_SETPIPE_SZ, " + request + ")", e);
            }
        }

        @Override
        public void close() throws NativeException {
            if (closed) {
                return;
            }
            closed = true;
            closeBoth(readFd, writeFd);
        }

        private static void closeBoth(int readFd, int writeFd) throws NativeException {
            try {
                Libc.close(readFd);
            } catch (LastErrorException e) {
                Fds.close(writeFd);
                throw NativeException.of("close(pipe read end " + readFd + ")", e);
            }
            Fds.close(writeFd);
        }

        private void checkOpen() {
            if (closed) {
                throw new IllegalStateException("pipe " + readFd + "/" + writeFd + " is closed");
            }
        }
    }

    /**
     * One splice(2) call. An offset of -1 means none (NULL): the fd's own position is used and advanced, as pipes
     * and sockets require; any other offset is used for this call only. Returns the bytes moved, 0 at end of input.
     * EINTR and EAGAIN are not retried here: they arrive as {@link NativeException#errno()}.
     */
    public static long splice(int fdIn, long offIn, int fdOut, long offOut, long len, int flags) throws NativeException {
        NativeSupport.check();
        try {
            return Libc.splice(fdIn, offIn == -1 ? null : new long[] {offIn}, fdOut,
                    offOut == -1 ? null : new long[] {offOut}, len, flags);
        } catch (LastErrorException e) {
            throw NativeException.of("splice(fd " + fdIn + " at " + offIn + " -> fd " + fdOut + " at " + offOut
                    + ", " + len + " bytes, flags " + flags + ")", e);
        }
    }

    /**
     * Sends {@code length} bytes of the file from {@code position} to the socket through {@code pipe} (which must be
     * empty). The file's own position is not used or changed. Throws {@link EOFException} if the file ends first.
     */
    public static long fileToSocket(int fileFd, long position, long length, int socketFd, Pipe pipe) throws IOException {
        NativeSupport.check();
        checkRange(position, length);
        long[] offset = {position};
        long moved = 0;
        while (moved < length) {
            long chunk = Math.min(length - moved, pipe.size());
            long in = spliceRetrying(fileFd, offset, pipe.writeFd(), null, chunk, SPLICE_F_MOVE | SPLICE_F_MORE, NO_POLL, 0);
            if (in == 0) {
                throw new EOFException("file fd " + fileFd + " ended at offset " + offset[0] + " after " + moved + " of "
                        + length + " bytes from position " + position + " had gone to socket fd " + socketFd);
            }
            // Let TCP push the last segment instead of waiting for more.
            int flags = SPLICE_F_MOVE | (moved + in < length ? SPLICE_F_MORE : 0);
            drain(pipe, in, socketFd, null, flags, socketFd, Libc.POLLOUT);
            moved += in;
        }
        return moved;
    }

    /**
     * Receives exactly {@code length} bytes from the socket into the file at {@code position} through {@code pipe}
     * (which must be empty). The file's own position is not used or changed; the fd must not be O_APPEND. Throws
     * {@link EOFException} if the peer closes first (the bytes before it are in the file).
     */
    public static long socketToFile(int socketFd, int fileFd, long position, long length, Pipe pipe) throws IOException {
        NativeSupport.check();
        checkRange(position, length);
        long[] offset = {position};
        long moved = 0;
        while (moved < length) {
            long chunk = Math.min(length - moved, pipe.size());
            long in = spliceRetrying(socketFd, null, pipe.writeFd(), null, chunk, SPLICE_F_MOVE, socketFd, Libc.POLLIN);
            if (in == 0) {
                throw new EOFException("socket fd " + socketFd + " reached end of stream after " + moved + " of "
                        + length + " bytes had gone to file fd " + fileFd + " from position " + position);
            }
            drain(pipe, in, fileFd, offset, SPLICE_F_MOVE, NO_POLL, 0);
            moved += in;
        }
        return moved;
    }

    /** Moves exactly {@code bytes} out of the pipe into {@code fdOut}. */
    private static void drain(Pipe pipe, long bytes, int fdOut, long[] offOut, int flags, int pollFd, int pollEvents)
            throws NativeException {
        while (bytes > 0) {
            long out = spliceRetrying(pipe.readFd(), null, fdOut, offOut, bytes, flags, pollFd, pollEvents);
            if (out == 0) {
                // Only an empty pipe without writers returns 0, and we hold the write end: a kernel surprise.
                throw new NativeException("splice(pipe fd " + pipe.readFd() + " -> fd " + fdOut + ") returned 0 with "
                        + bytes + " bytes in the pipe", Errno.EIO);
            }
            bytes -= out;
        }
    }

    /**
     * splice(2), retried on EINTR, and on EAGAIN after poll(2) says {@code pollFd} is ready. The kernel advances
     * a non-null offset array itself.
     */
    private static long spliceRetrying(int fdIn, long[] offIn, int fdOut, long[] offOut, long len, int flags,
                                       int pollFd, int pollEvents) throws NativeException {
        while (true) {
            try {
                return Libc.splice(fdIn, offIn, fdOut, offOut, len, flags);
            } catch (LastErrorException e) {
                int errno = e.getErrorCode();
                if (errno == Errno.EAGAIN && pollFd != NO_POLL) {
                    await(pollFd, pollEvents);
                } else if (errno != Errno.EINTR) {
                    throw NativeException.of("splice(fd " + fdIn + (offIn == null ? "" : " at " + offIn[0]) + " -> fd "
                            + fdOut + (offOut == null ? "" : " at " + offOut[0]) + ", " + len + " bytes)", e);
                }
            }
        }
    }

    /** Blocks in poll(2) until {@code fd} is ready for {@code events} (or has an error or hang-up to report). */
    private static void await(int fd, int events) throws NativeException {
        int[] pollfd = {fd, events};
        while (true) {
            try {
                Libc.poll(pollfd, 1, -1);
                return;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != Errno.EINTR) {
                    throw NativeException.of("poll(fd " + fd + ")", e);
                }
            }
        }
    }

    private static void checkRange(long position, long length) {
        if (position < 0 || length < 0) {
            throw new IllegalArgumentException("position " + position + " and length " + length + " must be >= 0");
        }
    }
}
