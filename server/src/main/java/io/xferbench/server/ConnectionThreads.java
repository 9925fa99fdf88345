package io.xferbench.server;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

/**
 * Where a server runs each connection's blocking code: one of the server's I/O models (see {@link ServerModels}). At
 * most {@code maxConnections} run at once; one more is rejected, and the client is told BUSY.
 */
interface ConnectionThreads {

    /** Runs {@code connection} on a thread of its own, or throws when {@code maxConnections} already run. */
    void execute(Runnable connection) throws RejectedExecutionException;

    /** Threads (platform or virtual) this model has alive now. */
    int threads();

    /** Connections running now. */
    int active();

    /** Accepts no more and waits for the running ones; returns whether they all finished in time. */
    boolean awaitTermination(Duration grace) throws InterruptedException;

    /** Interrupts whatever still runs and waits briefly for it to end. */
    void stopNow();
}
