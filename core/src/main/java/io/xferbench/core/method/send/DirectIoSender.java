package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.nativeio.AlignedBuffers;
import io.xferbench.nativeio.DirectIoFile;
import io.xferbench.nativeio.NativeSupport;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * O_DIRECT through the JNA shim: open(O_DIRECT) and pread64(2) straight from the device into a buffer
 * aligned as statx(STATX_DIOALIGN) says, then write(2) to the socket. The page cache is neither used nor
 * filled. A file system that refuses O_DIRECT fails the request with the file system named.
 */
public final class DirectIoSender implements FileSender {
    public static final SenderMethod METHOD = new DefinedSenderMethod("direct-io",
            "O_DIRECT pread64(2) through the JNA shim into a statx-aligned buffer + write(2)",
            () -> NativeSupport.available() ? Availability.AVAILABLE : Availability.unavailable(NativeSupport.unavailableReason()),
            MethodTraits.twin("odirect").definedBy("pread64", "write"),
            DirectIoSender::new);

    private final int bufferSize;
    private ByteBuffer buffer;
    private int alignment;

    private DirectIoSender(TransferOptions options) {
        this.bufferSize = options.bufferSize();
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        if (length == 0) {
            return;
        }
        try (DirectIoFile direct = DirectIoFile.openRead(file.reopenPath())) {
            int block = direct.alignment();
            if (buffer == null || alignment != block) {
                buffer = AlignedBuffers.allocate(AlignedBlockCopy.bufferSize(bufferSize, block), Math.max(block, AlignedBuffers.pageSize()));
                alignment = block;
            }
            AlignedBlockCopy.copy(direct::pread, file.path(), block, buffer, position, length, socket);
        }
    }
}
