package io.xferbench.server.thread;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code virtual+pool:N} model: a virtual thread per connection for the sockets (waiting for and reading
 * requests), and each request's file work (the transfer) handed to a bounded pool of N platform threads, so blocking
 * file I/O never pins carriers or makes the scheduler add them. At most N transfers run at once; the rest wait their
 * turn with their virtual thread parked. The Java twin of a C server with an I/O thread pool (and of nginx's
 * {@code aio threads}).
 */
public final class PooledVirtualThreads implements ConnectionThreads {
    private final VirtualThreads connections;
    private final ExecutorService pool;

    public PooledVirtualThreads(String name, int maxConnections, int poolSize) {
        this.connections = new VirtualThreads(name, maxConnections);
        AtomicInteger ids = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(poolSize, r -> {
            Thread t = new Thread(r, name + "-io-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void execute(Runnable connection) {
        connections.execute(connection);
    }

    @Override
    public <T> T offload(FileWork<T> work) throws IOException {
        Future<T> f = pool.submit(work::run);
        try {
            return f.get();
        } catch (InterruptedException e) {
            // The watchdog interrupted the connection: stop the transfer too (it also closed the socket).
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the I/O pool was transferring");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }

    @Override
    public int threads() {
        return connections.threads();
    }

    @Override
    public int active() {
        return connections.active();
    }

    @Override
    public ExecutorService executor() {
        return connections.executor();
    }

    @Override
    public boolean awaitTermination(Duration grace) throws InterruptedException {
        boolean done = connections.awaitTermination(grace);
        pool.shutdown();
        return done;
    }

    @Override
    public void stopNow() {
        connections.stopNow();
        pool.shutdownNow();
    }
}
