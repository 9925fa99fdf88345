package io.xferbench.client.load;

import io.xferbench.core.metrics.LiveThreads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A server's processes (the one started and its descendants: nginx's master and workers, or one JVM), read
 * from /proc: CPU time and live threads. Process CPU in /proc/PID/stat includes threads that already exited,
 * so two readings bracket a window exactly, to the kernel's clock tick (USER_HZ, 100 on Linux).
 */
final class ProcessTree {
    private static final double MICROS_PER_TICK = 1e6 / 100;

    private final ProcessHandle root;

    ProcessTree(ProcessHandle root) {
        this.root = root;
    }

    /**
     * Whether the process the bench started still runs. Once it is gone its figures mean nothing: nginx's orphaned
     * workers serve on, outside the tree, and the tree's CPU, threads and syscalls read zero.
     */
    boolean rootAlive() {
        return root.isAlive();
    }

    /** The process the bench started. */
    long rootPid() {
        return root.pid();
    }

    List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        pids.add(root.pid());
        root.descendants().forEach(p -> pids.add(p.pid()));
        return pids;
    }

    /** User + system CPU of every process in the tree now, in microseconds. */
    double cpuMicros() {
        double ticks = 0;
        for (long pid : pids()) {
            String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
            if (stat == null) {
                continue;
            }
            ticks += cpuTicks(stat);
        }
        return ticks * MICROS_PER_TICK;
    }

    /**
     * User + system CPU of the tree's HotSpot compiler threads now ({@code C1 CompilerThread…}, {@code C2
     * CompilerThread…}; their names are cut to 15 characters in /proc), in microseconds. A lower bound: HotSpot stops
     * idle compiler threads, and a thread that exited leaves its CPU in its process's total but in no task's.
     */
    double jitCpuMicros() {
        double ticks = 0;
        for (long pid : pids()) {
            try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    String stat = read(task.resolve("stat"));
                    if (stat == null) {
                        continue;
                    }
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        ticks += cpuTicks(stat);
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                // exited since the listing: not counted
            }
        }
        return ticks * MICROS_PER_TICK;
    }

    /** utime + stime of a /proc stat line (a process's or a task's), in clock ticks. */
    private static long cpuTicks(String stat) {
        // The command name (field 2) may contain spaces; fields after its closing ')' are fixed.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** Live threads of every process in the tree now. */
    int threads() {
        int threads = 0;
        for (long pid : pids()) {
            threads += Math.max(0, LiveThreads.countOf(pid)); // -1: exited since the listing, not counted
        }
        return threads;
    }

    /** A process that exited between listing and reading is simply not counted. */
    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return null;
        }
    }
}
