package io.xferbench.disk;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What SIGKILLed runs of a program left, removed when the next run starts and said, a line each: their scratch
 * directories under --dir and their memory cgroups. The cgroups are swept here and not only when a run makes its own,
 * so a run without one (--cgroup-limit none, stopped before its cgroup section) removes them too.
 */
public final class KilledRunSweep {
    private KilledRunSweep() {
    }

    /** Removes dead owners' {@code prefix…} directories under {@code parent} and their memory cgroups on {@code host}. */
    public static void run(String program, Path parent, String prefix, CgroupHost host, PrintStream log) {
        List<Path> removed = new ArrayList<>();
        try {
            removed.addAll(RunDirectory.removeStale(parent, prefix));
        } catch (IOException e) {
            log.println(program + ": could not remove the directories of killed runs in " + parent + ": " + e.getMessage());
        }
        if (MemoryCgroup.unavailableReason(host) == null) {
            try {
                removed.addAll(MemoryCgroup.removeStale(host));
            } catch (IOException e) {
                log.println(program + ": could not remove the memory cgroups of killed runs: " + e.getMessage());
            }
        }
        removed.forEach(p -> log.println(program + ": removed " + p + ", left by a run that was killed"));
    }
}
