package io.xferbench.disk.pollution;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a run must undo on every exit path (normal end, exception, Ctrl-C/SIGTERM): actions run once, last registered
 * first (children are killed before their cgroup is removed, the cgroup before the files). A SIGKILLed run leaves its
 * cgroup and directory; the next run removes both (MemoryCgroup.removeStale, {@link WorkDirectory#removeStale}), and
 * its children die with it (setpriv's parent-death signal).
 */
final class Cleanup implements AutoCloseable {
    interface Action {
        void run() throws Exception;
    }

    private final Deque<Action> actions = new ArrayDeque<>();
    private final Thread hook = new Thread(this::runAll, "bench-pollution-cleanup");

    Cleanup() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    synchronized void add(Action action) {
        actions.push(action);
    }

    private synchronized void runAll() {
        while (!actions.isEmpty()) {
            try {
                actions.pop().run();
            } catch (Exception e) {
                System.err.println("bench-pollution: cleanup: " + e);
            }
        }
    }

    @Override
    public void close() {
        runAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or ran: nothing left to do
        }
    }
}
