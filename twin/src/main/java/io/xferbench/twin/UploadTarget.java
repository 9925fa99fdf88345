package io.xferbench.twin;

import io.xferbench.nativeio.OwnedDirectories;
import io.xferbench.nativeio.PageCache;
import io.xferbench.nativeio.ProcessOwner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the upload pairs write: a directory of its own beside the test file (same file system), holding one target
 * file at a time. {@link #settle()} removes the last target and writes back the file system's dirty pages
 * (syncfs), so no receive pays for the one before; the directory goes on {@link #close()} and, should the harness be
 * killed (SIGTERM, SIGINT), from a shutdown hook. A SIGKILLed harness runs no hook: the directory is named after its
 * owner ({@code xferbench-upload-twin-<pid>.<start-millis>-<random>}, {@link ProcessOwner}) and the next harness removes
 * it, with its target file, before it makes its own; a live harness's is kept.
 */
final class UploadTarget implements AutoCloseable {
    static final String PREFIX = "xferbench-upload-twin-";
    private final Path dir;
    private final Path file;
    private final Thread onKill;

    UploadTarget(Path dataDir) throws IOException {
        for (Path left : OwnedDirectories.removeStale(dataDir, PREFIX)) {
            System.err.println("twin: removed " + left + " (left by a killed run)");
        }
        this.dir = Files.createTempDirectory(dataDir, PREFIX + ProcessOwner.current() + "-");
        this.file = dir.resolve("target.bin");
        this.onKill = new Thread(this::removeQuietly, "upload-target-cleanup");
        Runtime.getRuntime().addShutdownHook(onKill);
    }

    Path file() {
        return file;
    }

    /** No target file, and nothing dirty left on the target's file system. */
    void settle() throws IOException {
        Files.deleteIfExists(file);
        PageCache.syncFileSystem(dir);
    }

    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(onKill);
        } catch (IllegalStateException alreadyExiting) {
            // the hook runs anyway
        }
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    private void removeQuietly() {
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // exiting: nothing more to do
        }
    }
}
