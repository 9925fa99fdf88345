package io.xferbench.core.data;

import io.xferbench.nativeio.DontCacheProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the file system of a directory takes RWF_DONTCACHE reads: the kernel's release cannot say (6.18 has the flag,
 * its tmpfs refuses it), so one probe read is made of an empty file created there for it and removed. The file has a
 * server's temporary name ({@link TempFiles}): should the process die in between, the next server start sweeps it.
 */
public final class DontCacheOnDirectory {
    private DontCacheOnDirectory() {
    }

    /**
     * Null when a RWF_DONTCACHE read of a file in {@code dir} works, else why not (the shim, the kernel, the file
     * system), as {@link DontCacheProbe} words it.
     *
     * @throws IOException when no probe file can be made in {@code dir} (read-only, say), or the probe read fails
     *                     for another reason than the flag ({@link io.xferbench.nativeio.NativeException})
     */
    public static String unsupportedReason(Path dir) throws IOException {
        Path probe = Files.createFile(TempFiles.next(dir, "dontcache-probe"));
        try {
            return DontCacheProbe.unsupportedReason(probe);
        } finally {
            Files.deleteIfExists(probe);
        }
    }
}
