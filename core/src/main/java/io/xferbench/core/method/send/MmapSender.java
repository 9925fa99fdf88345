package io.xferbench.core.method.send;

import io.xferbench.core.mmap.Unmapper;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

/**
 * {@code MappedByteBuffer} windows → {@code SocketChannel.write}: mmap(2) + write(2) from the mapping, one
 * kernel copy and page faults instead of read(2). Windows are at most 1 GiB (a MappedByteBuffer is
 * int-indexed) and are unmapped as soon as they are sent rather than left for the GC.
 */
public final class MmapSender implements FileSender {
    static final long DEFAULT_WINDOW = 1L << 30;

    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("mmap",
            "MappedByteBuffer windows (<= 1 GiB) -> SocketChannel.write: mmap(2), page faults, write(2), munmap(2)",
            MethodTraits.twin("mmap").definedBy("mmap", "write"),
            options -> new MmapSender(DEFAULT_WINDOW));

    private final long window;

    MmapSender(long window) {
        this.window = window;
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        long pos = position;
        long end = position + length;
        while (pos < end) {
            long n = Math.min(window, end - pos);
            MappedByteBuffer map = file.channel().map(FileChannel.MapMode.READ_ONLY, pos, n);
            try {
                while (map.hasRemaining()) {
                    socket.write(map);
                }
            } finally {
                Unmapper.unmap(map);
            }
            pos += n;
        }
    }
}
