package io.xferbench.core.method;

import io.xferbench.nativeio.Fds;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A file opened for reading by the server. Senders read through {@code channel}; those that need a descriptor of
 * their own (O_DIRECT, a stream) open {@link #reopenPath()}, never {@code path}: a rename may have pointed the name
 * at another file since the checksum announced to the client was matched to this one.
 */
public record SourceFile(Path path, FileChannel channel, long size) {

    /** {@code /proc/self/fd/N} of {@code channel}: opening it opens this very file, whatever its name is now. */
    public Path reopenPath() {
        return Path.of("/proc/self/fd", Integer.toString(Fds.of(channel)));
    }
}
