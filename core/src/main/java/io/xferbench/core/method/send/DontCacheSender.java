package io.xferbench.core.method.send;

import io.xferbench.core.data.DontCacheOnDirectory;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.method.UnsupportedTransferException;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DontCacheProbe;
import io.xferbench.nativeio.Fds;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.Preadv2;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * preadv2(2) with RWF_DONTCACHE into a direct buffer, then write(2) to the socket: channel-direct's buffered read
 * (read-ahead, any offset and length), but the pages it brings into the page cache leave it once copied out, so a big
 * download does not push other files out of the cache as a buffered one does, nor loses read-ahead as O_DIRECT does.
 * Pages already cached are read from there and stay. The kernel has the flag from 6.14 (else the method is unavailable);
 * a file system that has not opted in refuses it, and such a file's request is refused before its head, with why.
 */
public final class DontCacheSender implements FileSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("dontcache",
            "preadv2(2) with RWF_DONTCACHE (Linux 6.14: buffered, its pages dropped once read) into a direct buffer + write(2)",
            DontCacheSender::availability,
            MethodTraits.twin("dontcache").definedBy("preadv2", "write"),
            DontCacheSender::new);

    private final ByteBuffer buffer;

    private DontCacheSender(TransferOptions options) {
        int page = AlignedBuffers.pageSize();
        this.buffer = options.unaligned()
                ? AlignedBuffers.misaligned(options.bufferSize(), page, DirectChannelSender.MISALIGNMENT)
                : AlignedBuffers.allocate(options.bufferSize(), page);
    }

    private static Availability availability() {
        String reason = DontCacheProbe.kernelUnsupportedReason();
        if (reason == null) {
            reason = Fds.unavailableReason();
        }
        return reason == null ? Availability.AVAILABLE : Availability.unavailable(reason);
    }

    /**
     * Whether dontcache can serve the files of {@code dir}: the kernel's answer, then the file system's, from one probe
     * read in {@code dir} ({@link DontCacheOnDirectory}). A server asks once at start for its INFO; a file system
     * mounted below {@code dir} may answer otherwise, so each request is still checked ({@link #checkSupported}).
     */
    public static Availability availabilityIn(Path dir) {
        Availability kernel = availability();
        if (!kernel.isAvailable()) {
            return kernel;
        }
        String reason;
        try {
            reason = DontCacheOnDirectory.unsupportedReason(dir);
        } catch (IOException e) {
            reason = "RWF_DONTCACHE not probed: " + e.getMessage();
        }
        return reason == null ? Availability.AVAILABLE : Availability.unavailable("data directory " + dir + ": " + reason);
    }

    /** One probe read at the file's end (it fetches nothing): the file system may refuse the flag the kernel has. */
    @Override
    public void checkSupported(SourceFile file, long position, long length) throws UnsupportedTransferException {
        String reason;
        try {
            reason = DontCacheProbe.unsupportedReason(Fds.of(file.channel()), file.size(), file.path());
        } catch (NativeException e) {
            reason = "the RWF_DONTCACHE probe failed: " + e.getMessage();
        }
        if (reason != null) {
            throw new UnsupportedTransferException(reason);
        }
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        int fd = Fds.of(file.channel());
        long pos = position;
        long end = position + length;
        while (pos < end) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), end - pos));
            int n = Preadv2.read(fd, buffer, pos, Preadv2.RWF_DONTCACHE);
            if (n == 0) {
                throw new EOFException(file.path() + " ended " + (end - pos) + " bytes early");
            }
            pos += n;
            buffer.flip();
            while (buffer.hasRemaining()) {
                socket.write(buffer);
            }
        }
    }
}
