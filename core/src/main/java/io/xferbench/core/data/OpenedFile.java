package io.xferbench.core.data;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A file opened for sending, with the CRC32C of exactly the bytes behind {@code channel}: the checksum record was
 * matched (or made) against the identity of this descriptor, so a rename over the name cannot pair this content
 * with another file's checksum. Senders read through {@code channel}, or reopen {@link #reopenPath()}, which names
 * the same open file whatever happened to its name since.
 */
public record OpenedFile(Path path, FileChannel channel, long size, int crc32c) implements AutoCloseable {

    public TestFile info() {
        return new TestFile(path, size, crc32c);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
