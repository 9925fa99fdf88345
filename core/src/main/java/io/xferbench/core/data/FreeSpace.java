package io.xferbench.core.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether what is about to be written fits in a directory's file system, asked before the first byte (uploads and
 * generations alike): a refusal costs one {@code statvfs(2)}, finding out by ENOSPC costs writing, then removing, all
 * that fitted, while other writers on that file system fail meanwhile.
 */
public final class FreeSpace {
    /** Bytes a write may still use in a directory's file system. */
    @FunctionalInterface
    public interface Probe {
        long usable(Path dir) throws IOException;
    }

    /** The file system's own answer (statvfs {@code f_bavail}: what a process without root's reserve may use). */
    public static final FreeSpace OF_FILE_SYSTEM = new FreeSpace(FreeSpace::statvfs);

    private final Probe probe;

    /** Asks {@code probe}; the file system itself is {@link #OF_FILE_SYSTEM} (another probe stands in for a full disk in tests). */
    public FreeSpace(Probe probe) {
        this.probe = probe;
    }

    /**
     * Refuses {@code bytes} of data, and {@code room} more that writing it takes besides (0 when none is counted), that
     * do not fit in the usable space of {@code dir}'s file system.
     *
     * @param what what is refused, for the message ("an upload")
     * @throws NotEnoughSpaceException naming the bytes needed and the bytes usable
     */
    public void require(Path dir, String what, long bytes, long room) throws IOException {
        long usable = probe.usable(dir);
        // Subtracted, not added: bytes + room may overflow for an absurd size.
        if (bytes > usable || room > usable - bytes) {
            throw new NotEnoughSpaceException(what + " does not fit: " + bytes + " bytes"
                    + (room > 0 ? " and " + room + " more for its checksum record and the file system's metadata" : "")
                    + ", " + usable + " bytes usable in the data directory");
        }
    }

    private static long statvfs(Path dir) throws IOException {
        // File.getUsableSpace is statvfs(2) on the directory: Files.getFileStore would first find the mount by parsing
        // /proc/self/mountinfo, per call (the largest CPU cost of a small upload on a machine with many mounts).
        // It answers 0 on failure too: then ask the slow way, which throws the reason.
        long usable = dir.toFile().getUsableSpace();
        return usable != 0 ? usable : Files.getFileStore(dir).getUsableSpace();
    }
}
