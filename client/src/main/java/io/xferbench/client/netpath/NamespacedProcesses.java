package io.xferbench.client.netpath;

import io.xferbench.client.process.GracefulStop;
import io.xferbench.core.process.ChildCommand;
import io.xferbench.core.process.ChildProcess;
import io.xferbench.core.process.ListeningLine;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The server, proxy and client processes of a run over a veth pair: each started so that it dies with this process,
 * even by SIGKILL (util-linux setpriv's parent-death signal), and all stopped on close, last started first.
 */
final class NamespacedProcesses implements AutoCloseable {
    /** SIGKILL when this process dies: a killed run must not leave a server holding its namespace. */
    private static final ChildCommand DYING_WITH_RUN = ChildCommand.dyingWithParent(ChildCommand.DeathSignal.KILL);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Deque<Process> started = new ArrayDeque<>();

    /**
     * Starts an xferbench server (or proxy) and returns what it announced (its port, a server's TLS certificate); its
     * later output goes to stderr.
     */
    ListeningLine.Announced startServer(List<String> command, String what) throws IOException {
        Process p = start(new ProcessBuilder(DYING_WITH_RUN.of(command)).redirectErrorStream(true));
        ChildProcess child = ChildProcess.of(what, p);
        // The lines before it are shown only if it never listens: the bind warning is noise here.
        ListeningLine.Announced announced = ListeningLine.announced(child, START_TIMEOUT);
        child.forwardOutput(line -> System.err.println(what + ": " + line));
        return announced;
    }

    /** Runs a command with this process's stdin, stdout and stderr and returns its exit status. */
    int runToEnd(List<String> command) throws IOException, InterruptedException {
        Process p = start(new ProcessBuilder(DYING_WITH_RUN.of(command)).inheritIO());
        int status = p.waitFor();
        started.remove(p);
        return status;
    }

    private Process start(ProcessBuilder builder) throws IOException {
        Process p = builder.start();
        started.push(p);
        return p;
    }

    @Override
    public void close() {
        while (!started.isEmpty()) {
            GracefulStop.stop(started.pop());
        }
    }
}
