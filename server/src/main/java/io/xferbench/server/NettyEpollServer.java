package io.xferbench.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * The {@code netty-epoll} I/O model: a Netty {@link ServerBootstrap} on epoll event loops (one per core, accepting
 * and serving) and a bounded pool of platform threads for file work, so the thread count does not grow with the
 * connections. Each connection is an {@link EventLoopConnection}; see there for the operations it serves.
 */
final class NettyEpollServer implements ServerListener {
    private static final Logger LOG = Logger.getLogger(NettyEpollServer.class.getName());

    private final EventLoopGroup loops;
    private final int loopCount;
    private final ThreadPoolExecutor files;
    private final EventLoopConnections connections;
    private Channel listener;

    private NettyEpollServer(int loopCount, int fileThreads, int maxConnections) {
        this.loopCount = loopCount;
        this.loops = new MultiThreadIoEventLoopGroup(loopCount, new DefaultThreadFactory("server-loop", true),
                EpollIoHandler.newFactory());
        AtomicInteger ids = new AtomicInteger();
        this.files = (ThreadPoolExecutor) Executors.newFixedThreadPool(fileThreads, r -> {
            Thread t = new Thread(r, "server-file-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.connections = new EventLoopConnections(maxConnections);
    }

    /** Starts with an event loop per core and {@code fileThreads} threads for file work. */
    static NettyEpollServer start(Parts parts, int fileThreads) throws IOException {
        if (!Epoll.isAvailable()) {
            throw new IOException("--io-model netty-epoll: Netty epoll is unavailable: " + Epoll.unavailabilityCause());
        }
        ServerConfig config = parts.config();
        NettyEpollServer server = new NettyEpollServer(Runtime.getRuntime().availableProcessors(), fileThreads,
                config.maxConnections());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(server.loops)
                .channel(EpollServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast(new EventLoopConnection(config, parts.data(), server.files, server.connections));
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

    private void shutdownThreads() {
        files.shutdownNow();
        loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
