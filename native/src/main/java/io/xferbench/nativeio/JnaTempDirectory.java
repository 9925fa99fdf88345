package io.xferbench.nativeio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Where JNA extracts its native part (libjnidispatch) in this suite's JVMs: {@code <tmp>/xferbench-jna-<pid>.<start-millis>}
 * rather than {@code ~/.cache/JNA/temp}. JNA unlinks the library once it is loaded, but a JVM killed in between left
 * it there under a random name, and JNA's own sweep on Linux takes only files it marked (which it does on Windows). In a
 * directory named by its owner ({@link ProcessOwner}) the leftover is this suite's: {@link Libc} claims before JNA
 * loads, removes the directory right after, and every claim first removes those whose owner is gone. A
 * {@value #PROPERTY} the user set is kept.
 */
final class JnaTempDirectory {
    static final String PROPERTY = "jna.tmpdir";
    static final String PREFIX = "xferbench-jna-";

    private JnaTempDirectory() {
    }

    /**
     * Removes dead processes' directories and points JNA at this process's own (JNA creates it when it extracts);
     * returns it, or null when the user set {@value #PROPERTY}.
     */
    static Path claim() {
        Path parent = parent();
        try {
            sweep(parent);
        } catch (IOException | UncheckedIOException e) {
            // Another JVM sweeping at once, or an unreadable tmp: the next claim tries again.
        }
        if (System.getProperty(PROPERTY) != null) {
            return null;
        }
        Path own = parent.resolve(PREFIX + ProcessOwner.current());
        System.setProperty(PROPERTY, own.toString());
        return own;
    }

    /** Removes the claimed directory once JNA has loaded its library (or failed to); null (the user's own) is kept. */
    static void release(Path own) {
        if (own == null) {
            return;
        }
        try {
            OwnedDirectories.delete(own);
        } catch (IOException | UncheckedIOException e) {
            // Not removable now: the next claim in any JVM of the suite removes it once this one is gone.
        }
    }

    /** Removes the directories {@code xferbench-jna-<pid>.<start-millis>} under {@code parent} whose owner is gone. */
    static List<Path> sweep(Path parent) throws IOException {
        return OwnedDirectories.removeStale(parent, PREFIX);
    }

    static Path parent() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }
}
