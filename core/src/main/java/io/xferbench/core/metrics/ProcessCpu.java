package io.xferbench.core.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of a process, and of its HotSpot compiler threads, from /proc, in microseconds to the kernel's clock tick
 * (USER_HZ, 100 on Linux). A process's figure includes threads that already exited, so two readings bracket a window
 * exactly. The compiler threads' figure ({@code C1 CompilerThread…}, {@code C2 CompilerThread…}, names cut to 15
 * characters in /proc) is a lower bound: HotSpot stops idle compiler threads, and a thread that exited leaves its CPU
 * in its process's total but in no task's.
 */
public final class ProcessCpu {
    /** One clock tick, the figures' resolution. */
    public static final double MICROS_PER_TICK = 1e6 / 100;

    private ProcessCpu() {
    }

    /** User + system CPU of the process so far; 0 once it is gone (or where there is no procfs). */
    public static double totalMicros(long pid) {
        String stat = read(Path.of("/proc", Long.toString(pid), "stat"));
        return stat == null ? 0 : cpuTicks(stat) * MICROS_PER_TICK;
    }

    /** User + system CPU of the process's live JIT compiler threads so far; 0 when it has none (or is gone). */
    public static double compilerThreadsMicros(long pid) {
        long ticks = 0;
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
            // the process or a task exited since the listing: not counted
        }
        return ticks * MICROS_PER_TICK;
    }

    /** utime + stime of a /proc stat line (a process's or a task's), in clock ticks. */
    private static long cpuTicks(String stat) {
        // The command name (field 2) may contain spaces; fields after its closing ')' are fixed.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** A process or task that exited between listing and reading is simply not counted. */
    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return null;
        }
    }
}
