package io.xferbench.server;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * Accepts connections with the JDK on one port and serves each on its own platform thread (blocking I/O
 * is what most of the measured methods are). Netty methods take the socket over per request; see
 * {@link io.xferbench.core.netty.NettyTransport}. At most {@code maxConnections} are served at once; the
 * next one is told BUSY and closed.
 */
public final class XferServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(XferServer.class.getName());

    private final ServerConfig config;
    private final DataDirectory data;
    private final ServerSocketChannel listener;
    private final ThreadPoolExecutor workers;
    private final Thread acceptor;
    private final Measurements measurements = new Measurements();
    private final ConnectionRegistry registry = new ConnectionRegistry();
    private final AtomicInteger connectionIds = new AtomicInteger();

    private XferServer(ServerConfig config, DataDirectory data, ServerSocketChannel listener) {
        this.config = config;
        this.data = data;
        this.listener = listener;
        AtomicInteger threadIds = new AtomicInteger();
        // Idle workers leave after 2 s, so thread counts return to their baseline soon after a burst.
        this.workers = new ThreadPoolExecutor(0, config.maxConnections(), 2, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "xferbench-conn-" + threadIds.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.acceptor = new Thread(this::acceptLoop, "xferbench-acceptor");
    }

    public static XferServer start(ServerConfig config) throws IOException {
        DataDirectory data = new DataDirectory(config.dataDir());
        ServerSocketChannel listener = ServerSocketChannel.open();
        try {
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(config.bind(), config.port()), 1024);
        } catch (IOException | RuntimeException e) {
            listener.close();
            throw new IOException("cannot listen on " + config.bind() + ":" + config.port() + ": " + e.getMessage(), e);
        }
        XferServer server = new XferServer(config, data, listener);
        server.acceptor.start();
        return server;
    }

    public int port() {
        try {
            return ((InetSocketAddress) listener.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new IllegalStateException("listener closed", e);
        }
    }

    public String host() {
        return config.bind();
    }

    public DataDirectory data() {
        return data;
    }

    /** Connections open now. */
    public int openConnections() {
        return registry.size();
    }

    /** Worker threads alive now, busy or idle. */
    public int workerThreads() {
        return workers.getPoolSize();
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
                LOG.warning("accept failed: " + e.getMessage());
                sleepQuietly(10);
                continue;
            }
            Connection connection = new Connection(connectionIds.incrementAndGet(), socket, config, data, measurements, registry);
            try {
                workers.execute(connection);
            } catch (RejectedExecutionException e) {
                refuseBusy(socket);
            }
        }
    }

    private void refuseBusy(SocketChannel socket) {
        try (socket) {
            Frames.writeFully(socket, ResponseCodec.error(Status.BUSY,
                    "server busy: " + config.maxConnections() + " connections already open (--max-connections)"));
        } catch (IOException ignored) {
            // The refused client is gone already.
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Graceful stop: no new connections, idle ones closed now, in-flight requests get the shutdown grace
     * period to finish, then everything left is closed.
     */
    @Override
    public void close() throws IOException {
        listener.close();
        registry.closeIdle();
        workers.shutdown();
        try {
            acceptor.join(5_000);
            if (!workers.awaitTermination(config.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warning("shutdown grace of " + config.shutdownGrace() + " passed; closing " + registry.size() + " connections");
                registry.closeAll();
                workers.shutdownNow();
                workers.awaitTermination(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            registry.closeAll();
            workers.shutdownNow();
        } finally {
            registry.close();
            measurements.close();
        }
    }
}
