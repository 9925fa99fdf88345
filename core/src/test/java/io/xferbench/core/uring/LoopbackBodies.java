package io.xferbench.core.uring;

import io.xferbench.core.net.BodyReceiver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32C;

/** What the engine's sender tests check a transfer against: the CRC32C the client received, and the file's own. */
final class LoopbackBodies {
    private LoopbackBodies() {
    }

    /** Receives {@code length} bytes on another thread; completes with their CRC32C. */
    static CompletableFuture<Integer> receive(SocketChannel client, long length) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new BodyReceiver().receive(client, length, true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** CRC32C of a range of the file, read with a plain positional read. */
    static int crcOf(FileChannel ch, long position, long length) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer b = ByteBuffer.allocate((int) length);
        while (b.hasRemaining() && ch.read(b, position + b.position()) > 0) {
            // loop over short reads
        }
        crc.update(b.flip());
        return (int) crc.getValue();
    }
}
