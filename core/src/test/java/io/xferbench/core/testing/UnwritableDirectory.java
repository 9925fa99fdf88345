package io.xferbench.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A directory nothing can be created in, for tests of outputs that cannot be written: immutable ({@code chattr +i})
 * for root, whom permission bits do not stop; read and search only for anyone else. Skips the test where neither
 * takes effect (a file system without the attribute).
 */
public final class UnwritableDirectory {
    private UnwritableDirectory() {
    }

    public static void make(Path dir) throws Exception {
        if (isRoot()) {
            run("chattr", "+i", dir.toString());
        } else {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        }
        try {
            Files.delete(Files.createFile(dir.resolve("probe")));
            undo(dir);
            MethodAssumptions.assumeAvailable("an unwritable directory", false, "could not make " + dir + " unwritable here");
        } catch (IOException expected) {
            // Nothing can be created in it: what the test needs.
        }
    }

    /** Writable again, so the test's temporary directory can be removed. */
    public static void undo(Path dir) throws Exception {
        if (isRoot()) {
            run("chattr", "-i", dir.toString());
        } else {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    private static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .anyMatch(l -> l.startsWith("Uid:") && l.split("\\s+")[2].equals("0"));
    }

    private static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        MethodAssumptions.assumeAvailable("an unwritable directory", p.waitFor() == 0, String.join(" ", cmd) + " failed: " + out.strip());
    }
}
