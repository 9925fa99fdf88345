package io.xferbench.client.load;

import io.xferbench.client.process.GracefulStop;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The servers a bench started, stopped on every path ({@link GracefulStop}). */
final class ChildProcesses {

    private ChildProcesses() {
    }

    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    /**
     * The command, run so that it gets SIGTERM if the bench dies (even by SIGKILL): util-linux's setpriv sets the
     * parent-death signal. Without setpriv a killed bench leaves its servers running (said once on stderr).
     */
    static List<String> dyingWithParent(List<String> command) {
        if (!Files.isExecutable(SETPRIV)) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of(SETPRIV.toString(), "--pdeathsig", "TERM", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    /** Starts a server the bench must stop on every path, the JVM's shutdown included. */
    static Process start(ProcessBuilder builder) throws IOException {
        Process p = builder.start();
        LIVE.add(p);
        return p;
    }

    static void stopAll() {
        List.copyOf(LIVE).forEach(ChildProcesses::stop);
    }

    static void stop(Process p) {
        LIVE.remove(p);
        GracefulStop.stop(p);
    }
}
