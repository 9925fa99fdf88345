package io.xferbench.disk;

import io.xferbench.nativeio.OwnedDirectories;
import io.xferbench.nativeio.ProcessOwner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A run's scratch directory under --dir, {@code <prefix><pid>.<start-millis>-<random>}: named by its owner so that a
 * run first removes what a SIGKILLed run of the same program left (its owner gone) and never a live run's. Cleanup
 * removes the run's own on every other exit path.
 */
public final class RunDirectory {
    private RunDirectory() {
    }

    /** A fresh directory for this run, after removing the dead runs' ones. */
    public static Path create(Path parent, String prefix) throws IOException {
        removeStale(parent, prefix);
        return Files.createTempDirectory(parent, prefix + ProcessOwner.current() + "-");
    }

    /** Removes the directories under {@code parent} named {@code prefix…} whose owner is gone. */
    public static List<Path> removeStale(Path parent, String prefix) throws IOException {
        return OwnedDirectories.removeStale(parent, prefix);
    }

    /** Removes the directory and everything in it (symbolic links themselves, not their targets). */
    public static void delete(Path dir) throws IOException {
        OwnedDirectories.delete(dir);
    }
}
