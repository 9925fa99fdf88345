package io.xferbench.client.load.target;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.MeasurementReport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;

/**
 * Watches a server over a run's measured window from outside (its processes' CPU and peak threads, when the bench
 * started them) and, for an xferbench server, from inside (its own measurement window). Either may be absent.
 * Threads started are the exception to "the measured window": they count from the run's start, before its first
 * connection (a second window, {@code run}), because kept-alive connections get their threads during the warm-up and
 * a thread-per-connection model would otherwise show none.
 */
public final class ServerWatch implements LoadEngine.WindowObserver {
    private final ProcessTree processes;
    private final InetSocketAddress nativeAddress;
    private final String token;
    private final Duration answerTimeout;
    private CgroupSyscallWindow syscalls;
    private CgroupSyscallWindow.Result syscallCounts;
    private ServerSampler sampler;
    private ServerWindow window;
    private ServerWindow run;
    private ServerSampler.ServerFigures figures;
    private MeasurementReport report;

    /**
     * @param processes     the server's processes, or null when not ours to watch
     * @param nativeAddress an xferbench server's address (native protocol), or null for any other server
     */
    public ServerWatch(ProcessTree processes, InetSocketAddress nativeAddress, String token) {
        this(processes, nativeAddress, token, XferConnection.DEFAULT_ANSWER_TIMEOUT);
    }

    /** @param answerTimeout how long the server's window may leave the client waiting (MEASURE_BEGIN/END a minute more) */
    public ServerWatch(ProcessTree processes, InetSocketAddress nativeAddress, String token, Duration answerTimeout) {
        this.processes = processes;
        this.nativeAddress = nativeAddress;
        this.token = token;
        this.answerTimeout = answerTimeout;
    }

    @Override
    public void preparing() {
        if (processes != null) {
            syscalls = CgroupSyscallWindow.prepare(processes);
        }
        if (nativeAddress != null) {
            try {
                // Both control connections first (each may cost the server a thread), then the run's window.
                window = ServerWindow.connect(nativeAddress, token, answerTimeout);
                run = ServerWindow.connect(nativeAddress, token, answerTimeout);
                run.begin(false);
            } catch (IOException e) {
                System.err.println("xferbench: warning: no server measurement window: " + e.getMessage());
                closeQuietly(window);
                closeQuietly(run);
                window = null;
                run = null;
            }
        }
    }

    private static void closeQuietly(ServerWindow w) {
        if (w == null) {
            return;
        }
        try {
            w.close();
        } catch (IOException ignored) {
            // The control connection is gone: nothing to release.
        }
    }

    @Override
    public void opened() {
        if (syscalls != null) {
            syscalls.open();
        }
        if (processes != null) {
            sampler = new ServerSampler(processes);
        }
        if (window != null) {
            try {
                window.begin(syscalls == null || syscalls.unavailable() != null);
            } catch (IOException e) {
                System.err.println("xferbench: warning: no server measurement window: " + e.getMessage());
                closeQuietly(window);
                window = null;
            }
        }
    }

    @Override
    public void openedLate(long lateNanos) {
        System.err.printf(Locale.ROOT, "xferbench: warning: the server's window took %d ms to open (the xferbench server's own "
                + "window, started last: its threads started and carriers cover that much less)%n", lateNanos / 1_000_000);
    }

    @Override
    public void closed() {
        if (syscalls != null) {
            syscallCounts = syscalls.finish();
        }
        if (sampler != null) {
            try {
                figures = sampler.finish();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (window != null) {
            try (ServerWindow w = window) {
                report = w.end();
            } catch (IOException e) {
                System.err.println("xferbench: warning: the server's measurement window failed: " + e.getMessage());
            }
        }
        if (run != null) {
            try (ServerWindow r = run) {
                long sinceRunStart = r.end().threadsStarted();
                if (report != null) {
                    report = report.withThreadsStarted(sinceRunStart);
                }
            } catch (IOException e) {
                System.err.println("xferbench: warning: the server's run window failed: " + e.getMessage());
            }
        }
    }

    /** Null when the processes were not watched. */
    public ServerSampler.ServerFigures figures() {
        return figures;
    }

    /** The server's processes' syscalls counted per cgroup, or null when its processes were not watched. */
    public CgroupSyscallWindow.Result syscalls() {
        return syscallCounts;
    }

    /** Null when the server is not an xferbench server or its window failed. */
    public MeasurementReport report() {
        return report;
    }
}
