package io.xferbench.core.method.receive;

import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedReceiverMethod;
import io.xferbench.core.method.FileReceiver;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.nativeio.AlignedBuffers;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * {@code SocketChannel.read} into a direct buffer → {@code FileChannel.write}: read(2) + pwrite64(2), one kernel
 * copy each way and none in user space. Page-aligned unless the client asks for {@code --unaligned} (page + 16).
 * The CRC32C is computed from the buffer as it passes (a CPU intrinsic).
 */
public final class DirectChannelReceiver implements FileReceiver {
    public static final ReceiverMethod METHOD = DefinedReceiverMethod.alwaysAvailable("channel-direct",
            "SocketChannel.read(direct ByteBuffer, page-aligned or page+16) -> FileChannel.write: read(2) + pwrite64(2)",
            MethodTraits.noTwin(MethodTraits.NO_UPLOAD_TWIN_YET).definedBy("read", "pwrite64"),
            DirectChannelReceiver::new);

    static final int MISALIGNMENT = 16;

    private final ByteBuffer buffer;
    private final CRC32C crc = new CRC32C();

    private DirectChannelReceiver(TransferOptions options) {
        int page = AlignedBuffers.pageSize();
        this.buffer = options.unaligned()
                ? AlignedBuffers.misaligned(options.bufferSize(), page, MISALIGNMENT)
                : AlignedBuffers.allocate(options.bufferSize(), page);
    }

    @Override
    public long receive(SocketChannel socket, ByteBuffer ahead, FileChannel file, Path path, long length) throws IOException {
        crc.reset();
        ReadableByteChannel in = PrefixedChannel.of(ahead, socket);
        long pos = 0;
        while (pos < length) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), length - pos));
            int n = in.read(buffer);
            if (n < 0) {
                throw new EOFException("connection closed after " + pos + " of " + length + " body bytes");
            }
            buffer.flip();
            crc.update(buffer.duplicate());
            while (buffer.hasRemaining()) {
                pos += file.write(buffer, pos);
            }
        }
        return crc.getValue();
    }
}
