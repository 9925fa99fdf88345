package io.xferbench.server;

import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * A listening socket whose connections are each served on their own platform thread, at most
 * {@code maxConnections} at once; the next one is told BUSY and closed. Shared by the server and the proxy.
 */
final class BoundedAcceptor {
    private static final Logger LOG = Logger.getLogger(BoundedAcceptor.class.getName());
    /** Idle workers leave after this, so thread counts return to their baseline soon after a burst. */
    private static final long WORKER_KEEP_ALIVE_SECONDS = 2;

    private final String name;
    private final int maxConnections;
    private final ServerSocketChannel listener;
    private final ThreadPoolExecutor workers;
    private final Thread acceptor;
    private final Consumer<SocketChannel> handler;

    private BoundedAcceptor(String name, int maxConnections, ServerSocketChannel listener, Consumer<SocketChannel> handler) {
        this.name = name;
        this.maxConnections = maxConnections;
        this.listener = listener;
        this.handler = handler;
        AtomicInteger threadIds = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(0, maxConnections, WORKER_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, name + "-conn-" + threadIds.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.acceptor = new Thread(this::acceptLoop, name + "-acceptor");
    }

    /** Binds and starts accepting; {@code handler} runs on the connection's own thread and owns the socket. */
    static BoundedAcceptor start(String name, String bind, int port, int maxConnections, Consumer<SocketChannel> handler) throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open();
        try {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(bind, port), 1024);
        } catch (IOException | RuntimeException e) {
            listener.close();
            throw new IOException("cannot listen on " + bind + ":" + port + ": " + e.getMessage(), e);
        }
        BoundedAcceptor a = new BoundedAcceptor(name, maxConnections, listener, handler);
        a.acceptor.start();
        return a;
    }

    int port() {
        try {
            return ((InetSocketAddress) listener.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException("listener closed", e);
        }
    }

    /** Worker threads alive now, busy or idle. */
    int workerThreads() {
        return workers.getPoolSize();
    }

    /** Connections being served now. */
    int activeConnections() {
        return workers.getActiveCount();
    }

    private void acceptLoop() {
        while (listener.isOpen()) {
            SocketChannel socket;
            try {
                socket = listener.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                // EMFILE and friends: say so, breathe, keep accepting.
                LOG.warning(name + ": accept failed: " + e.getMessage());
                try {
                    Thread.sleep(10);
                } catch (InterruptedException ie) {
                    return;
                }
                continue;
            }
            try {
                workers.execute(() -> handler.accept(socket));
            } catch (RejectedExecutionException e) {
                refuseBusy(socket);
            }
        }
    }

    private void refuseBusy(SocketChannel socket) {
        try (socket) {
            Frames.writeFully(socket, ResponseCodec.error(Status.BUSY,
                    name + " busy: " + maxConnections + " connections already open (--max-connections)"));
        } catch (IOException ignored) {
            // The refused client is gone already.
        }
    }

    /** Stops accepting: the listener closes, the acceptor thread ends. Connections being served go on. */
    void stopAccepting() throws IOException {
        listener.close();
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets the connections being served finish within {@code grace}; returns whether they all did. */
    boolean awaitConnections(Duration grace) throws InterruptedException {
        workers.shutdown();
        return workers.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Interrupts whatever still runs and waits briefly for it to end. */
    void stopConnections() {
        workers.shutdownNow();
        try {
            workers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
