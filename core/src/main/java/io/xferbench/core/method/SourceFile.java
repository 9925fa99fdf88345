package io.xferbench.core.method;

import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** A file opened for reading by the server; senders that need their own descriptor (O_DIRECT) use the path. */
public record SourceFile(Path path, FileChannel channel, long size) {
}
