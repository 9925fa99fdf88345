package io.xferbench.client.load.target;

import io.xferbench.client.process.GracefulStop;
import io.xferbench.core.process.ChildCommand;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The servers a bench started, stopped on every path ({@link GracefulStop}). */
final class ChildProcesses {

    private ChildProcesses() {
    }

    /** SIGTERM if the bench dies (even by SIGKILL), so a server's own shutdown hooks run. */
    static final ChildCommand DYING_WITH_BENCH = ChildCommand.dyingWithParent(ChildCommand.DeathSignal.TERM);

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
