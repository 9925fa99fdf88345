package io.xferbench.core.method.send;

import com.sun.nio.file.ExtendedOpenOption;
import io.xferbench.core.method.MethodTraits;
import io.xferbench.core.method.DefinedSenderMethod;
import io.xferbench.core.method.FileSender;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.SourceFile;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.nativeio.AlignedBuffers;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;

/**
 * O_DIRECT through the JDK's own {@code ExtendedOpenOption.DIRECT}: pread64(2) straight from the device into
 * an aligned direct buffer (bypassing and not filling the page cache), then write(2) to the socket.
 * The JDK demands that position, length and buffer are multiples of the file store's block size; reads are
 * rounded to blocks and only the requested bytes are sent.
 */
public final class JdkDirectIoSender implements FileSender {
    public static final SenderMethod METHOD = DefinedSenderMethod.alwaysAvailable("direct-io-jdk",
            "FileChannel opened with ExtendedOpenOption.DIRECT: O_DIRECT pread64(2) into an aligned buffer + write(2)",
            MethodTraits.twin("odirect").definedBy("pread64", "write"),
            JdkDirectIoSender::new);

    private final int bufferSize;
    private ByteBuffer buffer;
    private int alignment;
    private java.nio.file.Path blockSizeOf;
    private int blockSize;

    private JdkDirectIoSender(TransferOptions options) {
        this.bufferSize = options.bufferSize();
    }

    @Override
    public void send(SourceFile file, long position, long length, SocketChannel socket) throws IOException {
        if (length == 0) {
            return;
        }
        int block = blockSize(file);
        ensureBuffer(block);
        try (FileChannel direct = openDirect(file)) {
            AlignedBlockCopy.copy(direct::read, file.path(), block, buffer, position, length, socket);
        }
    }

    /** The file store's block size, looked up once per file (a FileStore lookup is ~20 syscalls). */
    private int blockSize(SourceFile file) throws IOException {
        if (!file.path().equals(blockSizeOf)) {
            blockSize = Math.toIntExact(Files.getFileStore(file.path()).getBlockSize());
            blockSizeOf = file.path();
        }
        return blockSize;
    }

    private void ensureBuffer(int block) {
        if (buffer == null || alignment != block) {
            buffer = AlignedBuffers.allocate(AlignedBlockCopy.bufferSize(bufferSize, block), Math.max(block, AlignedBuffers.pageSize()));
            alignment = block;
        }
    }

    private static FileChannel openDirect(SourceFile file) throws IOException {
        try {
            return FileChannel.open(file.reopenPath(), StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        } catch (IOException e) {
            throw new IOException("O_DIRECT refused for " + file.path() + " (file store "
                    + Files.getFileStore(file.path()).type() + "): " + e.getMessage(), e);
        }
    }
}
