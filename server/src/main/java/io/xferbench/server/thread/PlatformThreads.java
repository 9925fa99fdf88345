package io.xferbench.server.thread;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The {@code platform} model: a platform thread per connection, kept 2 s after it ends for the next one. */
public final class PlatformThreads implements ConnectionThreads {
    /** Idle workers leave after this, so thread counts return to their baseline soon after a burst. */
    private static final long KEEP_ALIVE_SECONDS = 2;

    private final ThreadPoolExecutor workers;

    public PlatformThreads(String name, int maxConnections) {
        AtomicInteger ids = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(0, maxConnections, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, name + "-conn-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void execute(Runnable connection) {
        workers.execute(connection);
    }

    @Override
    public int threads() {
        return workers.getPoolSize();
    }

    @Override
    public int active() {
        return workers.getActiveCount();
    }

    @Override
    public ExecutorService executor() {
        return workers;
    }
}
