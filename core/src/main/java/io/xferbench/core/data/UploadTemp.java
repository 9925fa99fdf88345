package io.xferbench.core.data;

import io.xferbench.nativeio.HeldDirectory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * An upload's temp file, open, and the directory it was created in, held ({@link HeldDirectory}) until the file is
 * renamed into place ({@link DataDirectory#placeUpload}) or removed ({@link #close}): both act from that descriptor,
 * so a directory of its path swapped for a symlink meanwhile neither receives the file nor keeps it behind.
 */
public final class UploadTemp implements AutoCloseable {
    private final Path path;
    private final FileChannel channel;
    private final HeldDirectory directory;
    private final String entry;
    private boolean placed;
    private boolean closed;

    UploadTemp(Path path, FileChannel channel, HeldDirectory directory, String entry) {
        this.path = path;
        this.channel = channel;
        this.directory = directory;
        this.entry = entry;
    }

    /** Where it was created, for messages and receivers' diagnoses; never acted on by path. */
    public Path path() {
        return path;
    }

    public FileChannel channel() {
        return channel;
    }

    HeldDirectory directory() {
        return directory;
    }

    String entry() {
        return entry;
    }

    /** Renamed into place: {@link #close} leaves the name alone. */
    void placed() {
        placed = true;
    }

    /** Closes the file, removes it unless it was placed, and releases its directory; idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (HeldDirectory held = directory) {
            try {
                channel.close();
            } finally {
                if (!placed) {
                    held.unlinkIfPresent(entry);
                }
            }
        }
    }
}
