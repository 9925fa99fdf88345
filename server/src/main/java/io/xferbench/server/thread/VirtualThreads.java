package io.xferbench.server.thread;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;

/**
 * The {@code virtual} model: a virtual thread per connection, the same blocking code as {@code platform}. Socket waits
 * unmount the virtual thread from its carrier; blocking file I/O (and the Netty and JNA calls) pins it. The JDK adds a
 * carrier for the duration only of the calls it compensates: since JDK 23 fsync, O_DIRECT and O_SYNC file I/O, not
 * buffered reads and writes (docs/load.md, "Carrier threads under blocking file I/O"). For this model the server runs
 * the JDK's socket pollers on platform threads ({@link PlatformPollers}), so that no connection waits unserved at
 * 1,000 busy connections; {@code virtual+pool:N}, which uses this class for its sockets, keeps the JDK's default.
 * Either way the pollers start with the model, not at the first socket wait (see {@link PlatformPollers#startNow}).
 */
public final class VirtualThreads implements ConnectionThreads {
    private final ExecutorService workers;
    private final Semaphore slots;
    private final int maxConnections;

    public VirtualThreads(String name, int maxConnections) {
        PlatformPollers.startNow();
        this.workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name + "-vconn-", 1).factory());
        this.slots = new Semaphore(maxConnections);
        this.maxConnections = maxConnections;
    }

    @Override
    public void execute(Runnable connection) {
        if (!slots.tryAcquire()) {
            throw new RejectedExecutionException("all " + maxConnections + " connection slots taken");
        }
        try {
            workers.execute(() -> {
                try {
                    connection.run();
                } finally {
                    slots.release();
                }
            });
        } catch (RejectedExecutionException e) {
            slots.release();
            throw e;
        }
    }

    @Override
    public int threads() {
        return active();
    }

    @Override
    public int active() {
        return maxConnections - slots.availablePermits();
    }

    @Override
    public ExecutorService executor() {
        return workers;
    }
}
