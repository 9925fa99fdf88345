package io.xferbench.server.thread;

import io.xferbench.server.limits.BusyRefusals;
import io.xferbench.server.limits.ColdPaths;
import io.xferbench.server.limits.RateLimitedLog;
import io.xferbench.server.limits.SpareDescriptor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * A listening socket whose connections are each served on their own platform thread, at most
 * {@code maxConnections} at once; the next one is told BUSY and closed. Shared by the server and the proxy.
 */
public final class BoundedAcceptor {
    private static final Logger LOG = Logger.getLogger(BoundedAcceptor.class.getName());
    private static final long MIN_BACKOFF_MILLIS = 10;
    private static final long MAX_BACKOFF_MILLIS = 1_000;

    private final String name;
    private final int maxConnections;
    private final ServerSocketChannel listener;
    private final ConnectionThreads workers;
    private final Thread acceptor;
    private final Consumer<SocketChannel> handler;
    private final SpareDescriptor spare = new SpareDescriptor();
    private final RateLimitedLog failures;
    private final AtomicLong shed = new AtomicLong();
    private final BusyRefusals refusals;

    private BoundedAcceptor(String name, int maxConnections, ServerSocketChannel listener, ConnectionThreads workers,
                            Consumer<SocketChannel> handler) {
        this.name = name;
        this.maxConnections = maxConnections;
        this.listener = listener;
        this.handler = handler;
        this.workers = workers;
        this.acceptor = new Thread(this::acceptLoop, name + "-acceptor");
        this.refusals = new BusyRefusals(name);
        this.failures = new RateLimitedLog(LOG, name + ": accept failed", Duration.ofSeconds(10));
        ColdPaths.load(); // before descriptors can run out
    }

    /** Binds and starts accepting; {@code handler} runs on the connection's own thread and owns the socket. */
    public static BoundedAcceptor start(String name, String bind, int port, int maxConnections, Consumer<SocketChannel> handler) throws IOException {
        return start(name, bind, port, maxConnections, new PlatformThreads(name, maxConnections), handler);
    }

    /** The same with the threads of an I/O model ({@code ServerModels}). */
    public static BoundedAcceptor start(String name, String bind, int port, int maxConnections, ConnectionThreads threads,
                                 Consumer<SocketChannel> handler) throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open();
        try {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(bind, port), 1024);
        } catch (IOException | RuntimeException e) {
            listener.close();
            throw new IOException("cannot listen on " + bind + ":" + port + ": " + e.getMessage(), e);
        }
        BoundedAcceptor a = new BoundedAcceptor(name, maxConnections, listener, threads, handler);
        a.acceptor.start();
        return a;
    }

    public int port() {
        try {
            return ((InetSocketAddress) listener.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException("listener closed", e);
        }
    }

    /** Worker threads alive now, busy or idle. */
    public int workerThreads() {
        return workers.threads();
    }

    /** Connections being served now. */
    public int activeConnections() {
        return workers.active();
    }

    private void acceptLoop() {
        long backoffMillis = MIN_BACKOFF_MILLIS;
        while (listener.isOpen()) {
            SocketChannel socket;
            // The spare first, if it is not held: after a refusal, a connection's thread may take the freed descriptor
            // for a moment (a file opened, a class loaded) before the spare is retaken; once closed, the accept below
            // took it for a client served for good, and with no spare every client after waited in the backlog.
            spare.retake();
            try {
                socket = listener.accept();
                backoffMillis = MIN_BACKOFF_MILLIS;
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                // Out of descriptors (EMFILE, ENFILE): the pending client would wait in the backlog and be served, much
                // later, to a dead socket. Spend the spare descriptor to take it and tell it BUSY now.
                failures.report(e);
                if (!shedOne()) {
                    try {
                        Thread.sleep(backoffMillis);
                    } catch (InterruptedException ie) {
                        return;
                    }
                    backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
                }
                continue;
            }
            try {
                workers.execute(() -> serve(socket));
            } catch (RejectedExecutionException e) {
                refuseBusy(socket);
            }
        }
    }

    /**
     * Runs the handler, which owns the socket; if it fails before it could take charge (a class that cannot be loaded
     * with no descriptor left to open its jar, say), the socket is closed here, never leaked.
     */
    private void serve(SocketChannel socket) {
        try {
            handler.accept(socket);
        } catch (RuntimeException | Error e) {
            LOG.warning(name + ": connection handler failed: " + e);
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closed already.
            }
        }
    }

    private void refuseBusy(SocketChannel socket) {
        refusals.refuse(socket, name + " busy: " + maxConnections + " connections already open (--max-connections)");
    }

    /**
     * With no descriptor to accept into: closes the spare, accepts one pending client into it, answers it BUSY and
     * closes it, then takes the spare back. @return whether a client was shed
     */
    private boolean shedOne() {
        if (!spare.release()) {
            return false;
        }
        try {
            listener.configureBlocking(false);
            SocketChannel pending = listener.accept();
            if (pending == null) {
                return false;
            }
            pending.configureBlocking(true);
            BusyRefusals.refuseNow(pending, name + " busy: out of file descriptors");
            shed.incrementAndGet();
            return true;
        } catch (IOException e) {
            return false;
        } finally {
            try {
                listener.configureBlocking(true);
            } catch (IOException ignored) {
                // Closed meanwhile: the loop ends.
            }
            spare.retake();
        }
    }

    /** Clients shed for want of descriptors since start. */
    long shedForDescriptors() {
        return shed.get();
    }

    /** Stops accepting: the listener closes, the acceptor thread ends. Connections being served go on. */
    public void stopAccepting() throws IOException {
        listener.close();
        spare.close();
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        spare.close(); // again: the loop may have retaken it since
        refusals.close();
    }

    /** Lets the connections being served finish within {@code grace}; returns whether they all did. */
    boolean awaitConnections(Duration grace) throws InterruptedException {
        return workers.awaitTermination(grace);
    }

    /** Interrupts whatever still runs and waits briefly for it to end. */
    public void stopConnections() {
        workers.stopNow();
    }
}
