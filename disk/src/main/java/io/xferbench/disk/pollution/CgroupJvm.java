package io.xferbench.disk.pollution;

import io.xferbench.core.process.ChildCommand;
import io.xferbench.core.process.ChildProcess;
import io.xferbench.disk.MemoryCgroup;
import io.xferbench.nativeio.JvmFlags;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM on our class path started as a member of the memory cgroup, with SIGKILL as its parent-death signal (where
 * util-linux's setpriv exists) so a killed bench leaves no child behind.
 */
final class CgroupJvm {
    /** Small heap and serial GC: the JVM's own memory is charged to the cgroup and must leave room for cache. */
    static final List<String> FLAGS = List.of("-Xmx48m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");

    private CgroupJvm() {
    }

    /** {@code prefix} goes before the {@code java} command: e.g. taskset's, to place it ({@link CpuPlacement}). */
    static ChildProcess start(MemoryCgroup group, List<String> prefix, String mainClass, List<String> args)
            throws IOException {
        List<String> flags = new ArrayList<>(FLAGS);
        flags.addAll(JvmFlags.required());
        List<String> command = ChildCommand.dyingWithParent(ChildCommand.DeathSignal.KILL).then(prefix)
                .java(flags, mainClass, args);
        return ChildProcess.start(mainClass.substring(mainClass.lastIndexOf('.') + 1), group.wrap(command));
    }
}
