package io.xferbench.server;

import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** An 8 MiB tmpfs mounted for a test, where a real ENOSPC can happen (root only; skipped with the reason elsewhere). */
final class SmallTmpfs {
    private SmallTmpfs() {
    }

    /** Mounts at {@code parent/small} and returns it. */
    static Path mount(Path parent) throws Exception {
        Path mount = Files.createDirectories(parent.resolve("small"));
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "xferbench-test", mount.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        boolean mounted = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        MethodAssumptions.assumeAvailable("ENOSPC on a small tmpfs",
                mounted ? Availability.AVAILABLE : Availability.unavailable("cannot mount a tmpfs here (needs root): " + out));
        return mount;
    }

    static void unmount(Path mount) throws Exception {
        if (mount != null) {
            new ProcessBuilder("umount", "-l", mount.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
