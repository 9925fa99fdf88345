package io.xferbench.disk;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a run must undo on every exit path (normal end, exception, Ctrl-C/SIGTERM): actions run once, last registered
 * first (children are killed before their cgroup is removed, the cgroup before the files). A SIGKILLed run leaves its
 * cgroup and its directory, which the program's next run removes (MemoryCgroup.removeStale, RunDirectory).
 */
public final class Cleanup implements AutoCloseable {
    /** One thing to undo. */
    public interface Action {
        void run() throws Exception;
    }

    private final String name;
    private final Deque<Action> actions = new ArrayDeque<>();
    private final Thread hook = new Thread(this::runAll, "xferbench-cleanup");

    /** @param name the program, for the messages of actions that fail */
    public Cleanup(String name) {
        this.name = name;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Undone before everything added earlier. */
    public synchronized void add(Action action) {
        actions.push(action);
    }

    private synchronized void runAll() {
        while (!actions.isEmpty()) {
            try {
                actions.pop().run();
            } catch (Exception e) {
                System.err.println(name + ": cleanup: " + e);
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
