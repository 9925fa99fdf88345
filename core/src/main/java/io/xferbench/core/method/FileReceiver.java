package io.xferbench.core.method;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * Moves bytes socket → file. One instance serves one connection (it may keep buffers or an adopted event-loop
 * channel between uploads) and is closed when the connection ends.
 */
public interface FileReceiver extends AutoCloseable {

    /** Returned by {@link #receive} when the bytes never passed through this receiver's user-space buffers. */
    long NOT_CHECKSUMMED = -1;

    /**
     * Takes the body's first bytes from {@code ahead} (read from the socket by the caller along with the request's
     * header; often none), then reads the rest, exactly {@code length - ahead.remaining()} bytes, from the blocking
     * {@code socket}, and writes all of them to {@code file} at offsets {@code 0 .. length-1}; returns only when all
     * are written. Never reads past {@code length}: the next request follows on the same socket. Short reads and
     * writes are looped over here.
     *
     * @param ahead the body's first bytes, at most {@code length}; consumed (position = limit) when this returns
     * @param file an empty regular file opened for reading and writing (the server's temp file)
     * @param path where {@code file} lives, for receivers that open their own descriptor
     * @return the CRC32C (0 .. 2^32-1) of the bytes, computed as they passed through this receiver's buffers, or
     *         {@link #NOT_CHECKSUMMED} when they never did (zero-copy): the caller then checksums the file
     * @throws java.io.EOFException if the peer closes before {@code length} bytes arrived
     */
    long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException;

    /** {@link #receive(SocketChannel, ByteBuffer, FileChannel, Path, long)} with nothing read ahead. */
    default long receive(SocketChannel socket, FileChannel file, Path path, long length) throws IOException {
        return receive(socket, ByteBuffer.allocate(0), file, path, length);
    }

    /**
     * For receivers whose bytes never enter user space: writes {@code ahead} at the file's start (one pwrite64(2), in
     * place of the read(2) the caller saved by reading it with the header), and returns where the socket's bytes go on.
     */
    static long writeAhead(ByteBuffer ahead, FileChannel file) throws IOException {
        long pos = 0;
        while (ahead.hasRemaining()) {
            pos += file.write(ahead, pos);
        }
        return pos;
    }

    @Override
    default void close() throws IOException {
    }
}
