package io.xferbench.jmh;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Ends a JMH fork whose host JVM is gone. JMH's fork notices a dead host only when it next reports to it, which
 * can be many seconds later, and meanwhile keeps its helper processes and files; a host stopped by SIGTERM (a
 * script's Ctrl-C or kill) would leave them. Polling the parent every 2 s and exiting runs the fork's
 * shutdown hooks ({@code HelperJvm}, the syscall profiler), so nothing outlives the run. The host is the nearest
 * ancestor that is a {@code java} process, not simply the parent: a fork started through a wrapper that does not exec
 * ({@code -jvm} naming a script, {@code perf stat --}, {@code taskset}) has the wrapper as its parent, and a wrapper
 * can outlive the host.
 */
final class ForkWatchdog {
    private static final String FORKED_MAIN = "org.openjdk.jmh.runner.ForkedMain";
    /** Each look reads /proc (openat, read, close): rare, so the syscall profiler's counts barely see it. */
    private static final long POLL_MILLIS = 2_000;
    /** The exit status of a process ended by SIGTERM, which the host's end amounts to. */
    private static final int ORPHANED = 143;
    /** How far up a wrapper chain to look for the host before settling for the parent. */
    private static final int MAX_WRAPPERS = 8;
    private static boolean started;

    private ForkWatchdog() {
    }

    /** Starts watching once per JVM, and only in a JMH fork (a run with -f 0 has no host to outlive). */
    static synchronized void start() {
        if (!System.getProperty("sun.java.command", "").startsWith(FORKED_MAIN) || started) {
            return;
        }
        started = true;
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        if (parent.isEmpty()) {
            return;
        }
        ProcessHandle host = host(parent.get());
        Thread t = new Thread(() -> watch(host), "xferbench-fork-watchdog");
        t.setDaemon(true);
        t.start();
    }

    /** The nearest process from {@code parent} up that runs {@code java}; {@code parent} itself when none does. */
    static ProcessHandle host(ProcessHandle parent) {
        ProcessHandle p = parent;
        for (int i = 0; i <= MAX_WRAPPERS; i++) {
            if (runsJava(p)) {
                return p;
            }
            Optional<ProcessHandle> up = p.parent();
            if (up.isEmpty()) {
                break;
            }
            p = up.get();
        }
        return parent;
    }

    private static boolean runsJava(ProcessHandle p) {
        return p.info().command().map(c -> Path.of(c).getFileName().toString().equals("java")).orElse(false);
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
