package io.xferbench.core.data;

import java.nio.file.Path;

/** A file the server can send, with the CRC32C of its whole content computed when it was written. */
public record TestFile(Path path, long size, int crc32c) {
}
