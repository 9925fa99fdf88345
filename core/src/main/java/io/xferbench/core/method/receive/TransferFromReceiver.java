package io.xferbench.core.method.receive;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedReceiverMethod;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * {@code FileChannel.transferFrom(socket)} in a loop. For a socket source the JDK has no zero-copy path: it reads
 * into its own temporary direct buffer (8 KiB per read(2)) and pwrite64(2)s it, so this measures the JDK's
 * internal copy loop. Calls are cut into chunks of at most {@link #CHUNK} bytes and short counts are looped over;
 * on a blocking socket a call that moves 0 of a non-zero count means the peer closed. The bytes never pass
 * through our buffers, so the server checksums the written file afterwards.
 */
public final class TransferFromReceiver implements FileReceiver {
    /** Largest count handed to one transferFrom call: int-safe, and a short count is looped over anyway. */
    static final long CHUNK = 1L << 30;

    public static final ReceiverMethod METHOD = DefinedReceiverMethod.alwaysAvailable("transfer-from",
            "FileChannel.transferFrom(SocketChannel) loop, <= 1 GiB per call: the JDK's read(2) into an internal 8 KiB buffer + pwrite64(2)",
            MethodTraits.noTwin(MethodTraits.NO_UPLOAD_TWIN_YET).definedBy("read", "pwrite64"),
            options -> new TransferFromReceiver(CHUNK));

    private final long chunk;

    TransferFromReceiver(long chunk) {
        this.chunk = chunk;
    }

    @Override
    public long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException {
        // Read ahead or not, the JDK copies a socket source through its buffer: the prefix joins its first read.
        ReadableByteChannel in = PrefixedChannel.of(ahead, socket);
        long pos = 0;
        while (pos < length) {
            long n = file.transferFrom(in, pos, Math.min(chunk, length - pos));
            if (n <= 0) {
                throw new EOFException("connection closed after " + pos + " of " + length + " body bytes");
            }
            pos += n;
        }
        return NOT_CHECKSUMMED;
    }
}
