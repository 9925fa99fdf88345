package io.xferbench.server.thread;

import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.limits.ConnectionRegistry;
import io.xferbench.server.model.ServerListener;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * The thread models' listener: {@link BoundedAcceptor} hands each connection to a {@link Connection} running on the
 * model's {@link ConnectionThreads}; the {@link ConnectionRegistry} enforces its deadlines.
 */
public final class ThreadedListener implements ServerListener {
    private static final Logger LOG = Logger.getLogger(ThreadedListener.class.getName());

    private final ConnectionRegistry registry = new ConnectionRegistry();
    private final AtomicInteger connectionIds = new AtomicInteger();
    private BoundedAcceptor acceptor;

    private ThreadedListener() {
    }

    public static ThreadedListener start(Parts parts, ConnectionThreads threads) throws IOException {
        ThreadedListener l = new ThreadedListener();
        ServerConfig config = parts.config();
        try {
            l.acceptor = BoundedAcceptor.start("server", config.bind(), config.port(), config.maxConnections(), threads,
                    socket -> new Connection(l.connectionIds.incrementAndGet(), socket, parts, l.registry, threads).run());
        } catch (IOException | RuntimeException e) {
            l.registry.close();
            throw e;
        }
        return l;
    }

    @Override
    public int port() {
        return acceptor.port();
    }

    @Override
    public int openConnections() {
        return registry.size();
    }

    @Override
    public int workerThreads() {
        return acceptor.workerThreads();
    }

    @Override
    public void stop(Duration grace) {
        try {
            acceptor.stopAccepting();
        } catch (IOException e) {
            LOG.fine(() -> "closing the listener: " + e);
        }
        registry.closeIdle();
        try {
            if (!acceptor.awaitConnections(grace)) {
                LOG.warning("shutdown grace of " + grace + " passed; closing " + registry.size() + " connections");
                registry.closeAll();
                acceptor.stopConnections();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            registry.closeAll();
            acceptor.stopConnections();
        } finally {
            registry.close();
        }
    }
}
