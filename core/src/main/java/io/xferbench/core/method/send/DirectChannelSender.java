package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.nativeio.AlignedBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * {@code FileChannel.read} into a direct buffer → {@code SocketChannel.write}: pread64(2) + write(2), one
 * kernel copy each way and none in user space. The buffer is page-aligned unless the client asks for
 * {@code --unaligned} (page + 16), which shows what a misaligned user buffer costs the kernel's copies.
 */
public final class DirectChannelSender implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("channel-direct",
            "FileChannel.read(direct ByteBuffer, page-aligned or page+16) -> SocketChannel.write: pread64(2) + write(2)",
            MethodTraits.twin("preadwrite").definedBy("pread64", "write"),
            DirectChannelSender::new);

    static final int MISALIGNMENT = 16;

    private final ByteBuffer buffer;

    private DirectChannelSender(TransferOptions options) {
        int page = AlignedBuffers.pageSize();
        this.buffer = options.unaligned()
                ? AlignedBuffers.misaligned(options.bufferSize(), page, MISALIGNMENT)
                : AlignedBuffers.allocate(options.bufferSize(), page);
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        ChannelCopy.copy(file.channel(), file.path(), position, length, buffer, socket);
    }
}
