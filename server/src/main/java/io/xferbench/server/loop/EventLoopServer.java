package io.xferbench.server.loop;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.xferbench.core.method.Availability;
import io.xferbench.core.uring.UringEntryOps;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.model.ServerListener;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * The event-loop I/O models ({@code netty-epoll}, {@code netty-io-uring}, and their {@code -inline} variants that open
 * files on the loop): a Netty {@link ServerBootstrap} on event
 * loops of one {@link EventLoopTransport} (one per core, accepting and serving) and a bounded pool of platform threads
 * for file work, so the thread count does not grow with the connections. Each connection is an
 * {@link EventLoopConnection}; see there for what runs where.
 */
public final class EventLoopServer implements ServerListener {
    private static final Logger LOG = Logger.getLogger(EventLoopServer.class.getName());
    /** Per loop: more opens and stats than this at once go to the pool (a slot is 512 bytes: a name and a statx). */
    private static final int RING_LOOKUPS_IN_FLIGHT = 1024;

    private final EventLoopGroup loops;
    private final int loopCount;
    private final ThreadPoolExecutor files;
    private final EventLoopConnections connections;
    /** Per loop, its ring's entry ops; empty unless lookups run on the ring ({@link LookupPlacement#RING}). */
    private final Map<EventExecutor, UringEntryOps> ringOps = new IdentityHashMap<>();
    /** Per loop, its batched hand-offs to {@link #files}. */
    private final Map<EventExecutor, FileWorkBatches> batches = new IdentityHashMap<>();
    private Channel listener;

    private EventLoopServer(EventLoopTransport transport, int loopCount, int fileThreads, int maxConnections) {
        this.loopCount = loopCount;
        this.loops = new MultiThreadIoEventLoopGroup(loopCount, new DefaultThreadFactory("server-loop", true),
                transport.handlerFactory());
        AtomicInteger ids = new AtomicInteger();
        this.files = (ThreadPoolExecutor) Executors.newFixedThreadPool(fileThreads, r -> {
            Thread t = new Thread(r, "server-file-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.connections = new EventLoopConnections(maxConnections);
        for (EventExecutor loop : loops) {
            batches.put(loop, new FileWorkBatches(loop, files));
        }
    }

    /**
     * Starts model {@code model} on {@code transport} with an event loop per core and {@code fileThreads} threads for
     * file work; downloads, HEAD and STAT look their file up where {@code lookups} says (see {@link EventLoopConnection}).
     */
    public static EventLoopServer start(String model, EventLoopTransport transport, LookupPlacement lookups, Parts parts, int fileThreads)
            throws IOException {
        Availability availability = transport.availability();
        if (!availability.isAvailable()) {
            throw new IOException("--io-model " + model + ": " + availability.unavailableReason());
        }
        ServerConfig config = parts.config();
        EventLoopServer server = new EventLoopServer(transport, Runtime.getRuntime().availableProcessors(), fileThreads,
                config.maxConnections());
        if (lookups == LookupPlacement.RING) {
            try {
                for (EventExecutor loop : server.loops) {
                    server.ringOps.put(loop, UringEntryOps.register((IoEventLoop) loop, RING_LOOKUPS_IN_FLIGHT));
                }
            } catch (RuntimeException e) {
                server.shutdownThreads();
                throw new IOException("--io-model " + model + ": cannot register file lookups with an io_uring loop: " + e, e);
            }
        }
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(server.loops)
                .channel(transport.serverChannel)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(new EventLoopAcceptFailures())
                .childOption(ChannelOption.TCP_NODELAY, true)
                // A client that sends its request and then shuts down its side (`printf ... | nc -N`) still gets the
                // answer, as from the thread models: EventLoopConnection closes once what arrived is answered.
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast(new EventLoopConnection(model, parts, server.files,
                                server.batches.get(channel.eventLoop()), server.connections, lookups,
                                server.ringOps.get(channel.eventLoop()), transport));
                    }
                });
        try {
            server.listener = bootstrap.bind(config.bind(), config.port()).sync().channel();
        } catch (Exception e) {
            server.shutdownThreads();
            throw new IOException("cannot listen on " + config.bind() + ":" + config.port() + ": " + e.getMessage(), e);
        }
        return server;
    }

    @Override
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    @Override
    public int openConnections() {
        return connections.served();
    }

    @Override
    public int workerThreads() {
        return loopCount + files.getPoolSize();
    }

    @Override
    public void stop(Duration grace) {
        listener.close().syncUninterruptibly();
        connections.stop();
        try {
            if (!connections.awaitClosed(grace)) {
                LOG.warning("shutdown grace of " + grace + " passed; closing the connections left");
                connections.closeAll();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connections.closeAll();
        } finally {
            shutdownThreads();
        }
    }

    /** Loops first (their closing connections hand temp-file removals to the pool), then the pool, drained. */
    private void shutdownThreads() {
        loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
        files.shutdown();
        try {
            if (!files.awaitTermination(5, TimeUnit.SECONDS)) {
                files.shutdownNow();
            }
        } catch (InterruptedException e) {
            files.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
