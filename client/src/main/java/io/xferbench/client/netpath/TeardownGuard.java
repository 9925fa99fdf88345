package io.xferbench.client.netpath;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small shell outside the namespaces that removes them when this JVM dies in a way no hook sees (SIGKILL, the OOM
 * killer): it blocks reading a pipe from us, and end-of-file comes when we close it or when the kernel closes it for a
 * dead JVM. Then it kills what is left inside the namespaces and deletes them (a no-op after a normal close, which has
 * deleted them already). Its own session and ignored INT/TERM/HUP keep a Ctrl-C or hangup of the run's process group
 * from taking it down before it has done its job.
 */
final class TeardownGuard implements AutoCloseable {
    /** How the guard's command line names it (tests find it by this). */
    static final String NAME = "xferbench-veth-guard";
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final String SCRIPT = "trap '' INT TERM HUP; ip=$1; shift; cat >/dev/null; "
            + "for ns; do for p in $(\"$ip\" netns pids \"$ns\" 2>/dev/null); do kill -9 \"$p\" 2>/dev/null; done; "
            + "\"$ip\" netns delete \"$ns\" 2>/dev/null; done; exit 0";
    private static final long EXIT_SECONDS = 10;

    private final Process process;

    private TeardownGuard(Process process) {
        this.process = process;
    }

    /** Starts guarding {@code namespaces} (before they exist, so no moment leaves them unguarded). */
    static TeardownGuard start(List<String> namespaces) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(SETSID)) {
            cmd.add(SETSID.toString());
        }
        cmd.addAll(List.of("/bin/sh", "-c", SCRIPT, NAME, HostCommand.locate("ip")));
        cmd.addAll(namespaces);
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return new TeardownGuard(p);
    }

    /** Lets the guard run its (by now redundant) deletion and end. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(EXIT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
