package io.xferbench.client.load.target;

import io.xferbench.core.method.Availability;
import io.xferbench.core.metrics.PerfCgroup;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.metrics.SyscallCounts;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Syscalls and context switches of a server's processes over a measured window, counted by the kernel per CPU for
 * the cgroup they are moved into ({@code perf stat -a -G}): the same way for an xferbench JVM with 500 threads and for
 * nginx's master and workers. Everything slow (the cgroup, perf opening its events) happens in {@link #prepare}, before
 * the window; opening and closing it are one command to perf each, so the counts cover the window the requests do.
 */
public final class CgroupSyscallWindow implements AutoCloseable {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** What one window counted, or why nothing was. */
    public record Result(SyscallCounts counts, String unavailable) {
    }

    private final PerfCgroup cgroup;
    private final PerfSyscallCounter counter;
    private String unavailable;
    private Result result;

    private CgroupSyscallWindow(PerfCgroup cgroup, PerfSyscallCounter counter, String unavailable) {
        this.cgroup = cgroup;
        this.counter = counter;
        this.unavailable = unavailable;
    }

    /** Moves the tree's processes into a new cgroup and attaches perf, counting off; never throws, says why instead. */
    public static CgroupSyscallWindow prepare(ProcessTree processes) {
        Availability a = PerfCgroup.availability();
        if (!a.isAvailable()) {
            return new CgroupSyscallWindow(null, null, a.unavailableReason());
        }
        PerfCgroup cgroup = null;
        try {
            cgroup = PerfCgroup.create("load-" + SEQUENCE.incrementAndGet(), processes.pids());
            PerfSyscallCounter counter = PerfSyscallCounter.attachCgroup(cgroup.perfName(), PerfSyscallCounter.DEFAULT_SYSCALLS);
            counter.awaitAttached();
            return new CgroupSyscallWindow(cgroup, counter, null);
        } catch (IOException | RuntimeException e) {
            if (cgroup != null) {
                try {
                    cgroup.close();
                } catch (IOException ignored) {
                    // The first failure is the one reported.
                }
            }
            return new CgroupSyscallWindow(null, null, "per-cgroup counting failed: " + e.getMessage());
        }
    }

    /** Why this window counts nothing, or null when it counts. */
    String unavailable() {
        return unavailable;
    }

    /** The window opens: perf starts counting. */
    public void open() {
        if (counter != null) {
            try {
                counter.enable();
            } catch (IOException e) {
                unavailable = "perf did not start counting: " + e.getMessage();
            }
        }
    }

    /** Ends the window (idempotent): the counts, perf stopped, the processes back in their cgroups. */
    public Result finish() {
        if (result != null) {
            return result;
        }
        SyscallCounts counts = null;
        if (counter != null && unavailable == null) {
            try {
                counter.disable();
                counts = counter.stop();
            } catch (IOException e) {
                unavailable = "perf's counts could not be read: " + e.getMessage();
            }
        }
        close();
        result = new Result(counts, counts == null ? unavailable : null);
        return result;
    }

    @Override
    public void close() {
        if (counter != null) {
            counter.close();
        }
        if (cgroup != null) {
            try {
                cgroup.close();
            } catch (IOException e) {
                System.err.println("xferbench: warning: could not remove the counting cgroup: " + e.getMessage());
            }
        }
    }
}
