package io.xferbench.core.method.send;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * {@code FileChannel.read} into a heap buffer → {@code SocketChannel.write}. The JDK bounces each call
 * through a temporary direct buffer, so this pays two extra memcpy per buffer over channel-direct.
 */
public final class HeapChannelSender implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("channel-heap",
            "FileChannel.read(heap ByteBuffer) -> SocketChannel.write: pread64(2) + write(2), JDK copies via a temporary direct buffer",
            MethodTraits.twin("readwrite").definedBy("pread64", "write"),
            HeapChannelSender::new);

    private final ByteBuffer buffer;

    private HeapChannelSender(TransferOptions options) {
        this.buffer = ByteBuffer.allocate(options.bufferSize());
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        ChannelCopy.copy(file.channel(), file.path(), position, length, buffer, socket);
    }
}
