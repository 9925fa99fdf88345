package io.xferbench.jmh;

import java.util.Optional;

/**
 * Ends a JMH fork whose host JVM is gone. JMH's fork notices a dead host only when it next reports to it, which
 * can be many seconds later, and meanwhile keeps its helper processes and files; a host stopped by SIGTERM (a
 * script's Ctrl-C or kill) would leave them. Polling the parent every 2 s and exiting runs the fork's
 * shutdown hooks ({@code ChildJvm}, the syscall profiler), so nothing outlives the run.
 */
final class ForkWatchdog {
    private static final String FORKED_MAIN = "org.openjdk.jmh.runner.ForkedMain";
    /** Each look reads /proc (openat, read, close): rare, so the syscall profiler's counts barely see it. */
    private static final long POLL_MILLIS = 2_000;
    /** The exit status of a process ended by SIGTERM, which the host's end amounts to. */
    private static final int ORPHANED = 143;
    private static boolean started;

    private ForkWatchdog() {
    }

    /** Starts watching once per JVM, and only in a JMH fork (a run with -f 0 has no host to outlive). */
    static synchronized void start() {
        if (!System.getProperty("sun.java.command", "").startsWith(FORKED_MAIN) || started) {
            return;
        }
        started = true;
        Optional<ProcessHandle> host = ProcessHandle.current().parent();
        if (host.isEmpty()) {
            return;
        }
        Thread t = new Thread(() -> watch(host.get()), "xferbench-fork-watchdog");
        t.setDaemon(true);
        t.start();
    }

    private static void watch(ProcessHandle host) {
        try {
            while (host.isAlive()) {
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            return;
        }
        System.err.println("xferbench: the JMH host (pid " + host.pid() + ") is gone; this fork ends");
        System.exit(ORPHANED);
    }
}
