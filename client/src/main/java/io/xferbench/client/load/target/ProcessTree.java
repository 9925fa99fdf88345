package io.xferbench.client.load.target;

import io.xferbench.core.metrics.LiveThreads;
import io.xferbench.core.metrics.ProcessCpu;
import java.util.ArrayList;
import java.util.List;

/**
 * A server's processes (the one started and its descendants: nginx's master and workers, or one JVM), read
 * from /proc: CPU time ({@link ProcessCpu}) and live threads.
 */
public final class ProcessTree {
    private final ProcessHandle root;

    ProcessTree(ProcessHandle root) {
        this.root = root;
    }

    /**
     * Whether the process the bench started still runs. Once it is gone its figures mean nothing: nginx's orphaned
     * workers serve on, outside the tree, and the tree's CPU, threads and syscalls read zero.
     */
    public boolean rootAlive() {
        return root.isAlive();
    }

    /** The process the bench started. */
    public long rootPid() {
        return root.pid();
    }

    public List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        pids.add(root.pid());
        root.descendants().forEach(p -> pids.add(p.pid()));
        return pids;
    }

    /** User + system CPU of every process in the tree now, in microseconds. */
    double cpuMicros() {
        double micros = 0;
        for (long pid : pids()) {
            micros += ProcessCpu.totalMicros(pid);
        }
        return micros;
    }

    /** User + system CPU of the tree's HotSpot compiler threads now, in microseconds (a lower bound). */
    double jitCpuMicros() {
        double micros = 0;
        for (long pid : pids()) {
            micros += ProcessCpu.compilerThreadsMicros(pid);
        }
        return micros;
    }

    /** Live threads of every process in the tree now. */
    int threads() {
        int threads = 0;
        for (long pid : pids()) {
            threads += Math.max(0, LiveThreads.countOf(pid)); // -1: exited since the listing, not counted
        }
        return threads;
    }
}
