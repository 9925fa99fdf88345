package io.xferbench.server.thread;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Where a server runs each connection's blocking code: one of the server's I/O models (see {@code ServerModels}). At
 * most {@code maxConnections} run at once; one more is rejected, and the client is told BUSY.
 */
public interface ConnectionThreads {

    /** Runs {@code connection} on a thread of its own, or throws when {@code maxConnections} already run. */
    void execute(Runnable connection) throws RejectedExecutionException;

    /** Threads (platform or virtual) this model has alive now. */
    int threads();

    /** Connections running now. */
    int active();

    /**
     * Runs a request's file work (a transfer, a preparation, an upload) where this model puts it: on the connection's
     * own thread by default; on a bounded pool of platform threads for {@code virtual+pool:N}.
     */
    default <T> T offload(FileWork<T> work) throws IOException {
        return work.run();
    }

    /** A request's work that touches files. */
    @FunctionalInterface
    interface FileWork<T> {
        T run() throws IOException;
    }

    /** The executor the connections run on, for the shutdown steps every model shares. */
    ExecutorService executor();

    /** Accepts no more and waits for the running ones; returns whether they all finished in time. */
    default boolean awaitTermination(Duration grace) throws InterruptedException {
        executor().shutdown();
        return executor().awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Interrupts whatever still runs and waits briefly for it to end. */
    default void stopNow() {
        executor().shutdownNow();
        try {
            executor().awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
