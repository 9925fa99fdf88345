package io.xferbench.client.load.fileops;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Deletes a load run's files when the JVM is stopped mid-run (SIGTERM, Ctrl-C): a shutdown hook for the run's span.
 * It stops the run's connections from sending, waits briefly for uploads in flight (one answered after the delete
 * would put its file back), then deletes what is left over a fresh connection, within a bounded time: a stopped
 * client must exit, even when the server no longer answers. A SIGKILLed run runs no hook: {@code client load clean}.
 */
final class StoppedRunCleanup implements AutoCloseable {
    static final Duration UPLOADS_WAIT = Duration.ofSeconds(2);
    static final Duration DELETE_DEADLINE = Duration.ofSeconds(5);

    /** Deletes named files on the run's server; called from a thread of its own, abandoned after its deadline. */
    @FunctionalInterface
    interface Deleter {
        void delete(List<String> names) throws IOException;
    }

    private final Thread hook;

    /** Registers the hook; {@link #close} removes it when the run ended by itself (and cleaned up after itself). */
    StoppedRunCleanup(CreatedFiles created, Deleter deleter) {
        this.hook = new Thread(() -> cleanUp(created, deleter), "xferbench-load-stopped-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private static void cleanUp(CreatedFiles created, Deleter deleter) {
        created.stop();
        try {
            created.awaitUploads(System.nanoTime() + UPLOADS_WAIT.toNanos());
            List<String> names = created.remaining();
            if (names.isEmpty()) {
                return;
            }
            Thread deleting = Thread.ofPlatform().daemon().name("xferbench-load-stopped-delete").start(() -> {
                try {
                    deleter.delete(names);
                } catch (IOException | RuntimeException e) {
                    System.err.println("xferbench: stopped: deleting the load's files failed: " + e.getMessage());
                }
            });
            if (!deleting.join(DELETE_DEADLINE)) {
                System.err.printf("xferbench: stopped: the server did not delete the load's %d file(s) within %d s; "
                        + "'client load clean --data-dir DIR' on its machine removes them%n", names.size(),
                        TimeUnit.NANOSECONDS.toSeconds(DELETE_DEADLINE.toNanos()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is being stopped: the hook runs (or ran) and does the deleting.
        }
    }
}
