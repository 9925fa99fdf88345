package io.xferbench.nativeio;

import java.time.Instant;

/**
 * Who made a file or directory that outlives a killed run: {@code <pid>.<start-millis>}, written into its name. The
 * start time makes a reused pid count as gone, so a later run removes what a dead one left and never what a live one
 * still uses.
 */
public final class ProcessOwner {
    private static final String CURRENT = ProcessHandle.current().pid() + "." + startMillis(ProcessHandle.current());

    private ProcessOwner() {
    }

    /** This process's token. */
    public static String current() {
        return CURRENT;
    }

    /** Whether no live process has this pid and start time. */
    public static boolean isGone(long pid, long startMillis) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(p -> startMillis(p) != startMillis).orElse(true);
    }

    private static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }
}
