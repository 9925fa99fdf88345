package io.xferbench.jmh.drain;

import java.util.Optional;

/** The helper processes' ({@link DrainServer}, {@link FeedServer}) tie to the benchmark JVM that started them. */
final class ParentWatch {
    private ParentWatch() {
    }

    /** Halts this process (status 3) when {@code pid} ends, or exits now when it already has: no orphan is left. */
    static void exitWith(long pid) {
        Optional<ProcessHandle> parent = ProcessHandle.of(pid);
        if (parent.isEmpty()) {
            System.exit(3);
        }
        parent.get().onExit().thenRun(() -> Runtime.getRuntime().halt(3));
    }
}
