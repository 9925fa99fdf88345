package io.xferbench.server;

import io.xferbench.core.method.Availability;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The server's I/O models (how connections get threads), by id, in the order tables show them. A new thread model is
 * one {@link ConnectionThreads} class plus its line here; a model that accepts
 * by itself is one {@link ServerListener}.
 */
final class ServerModels {
    /** One model: its id on {@code --io-model}, what it is, whether it can run here, and how to start its listener. */
    record Model(String id, String summary, Supplier<Availability> availability, Factory factory) {
        Model(String id, String summary, Factory factory) {
            this(id, summary, () -> Availability.AVAILABLE, factory);
        }
    }

    @FunctionalInterface
    interface Factory {
        ServerListener start(ServerListener.Parts parts) throws IOException;
    }

    /** How a thread model builds its threads; its connections are then accepted by a {@link ThreadedListener}. */
    @FunctionalInterface
    interface ThreadsFactory {
        ConnectionThreads create(String name, int maxConnections);
    }

    private static Factory threaded(ThreadsFactory threads) {
        return parts -> ThreadedListener.start(parts, threads.create("server", parts.config().maxConnections()));
    }

    static final String POOL = "virtual+pool";
    static final int DEFAULT_POOL = 8;

    private static final List<Model> ALL = List.of(
            new Model("platform", "a platform thread per connection, blocking I/O", threaded(PlatformThreads::new)),
            new Model("virtual", "a virtual thread per connection, the same blocking I/O (file I/O pins its carrier)",
                    threaded(VirtualThreads::new)),
            new Model(POOL, "virtual threads for sockets, each transfer on a bounded pool of N platform threads "
                    + "(" + POOL + ":N, default " + DEFAULT_POOL + ")",
                    threaded((name, max) -> new PooledVirtualThreads(name, max, DEFAULT_POOL))),
            eventLoop(EventLoopTransport.EPOLL, "Netty epoll event loops (one per core) for sockets, sendfile for download bodies"),
            eventLoop(EventLoopTransport.IO_URING, "Netty io_uring event loops (one per core) for sockets, splice for "
                    + "download bodies"));

    private static Model eventLoop(EventLoopTransport transport, String sockets) {
        return new Model(transport.model, sockets + ", file work (open, checksum, stat, unlink, upload writes) on a "
                + "pool of " + DEFAULT_POOL + " platform threads", transport::availability,
                parts -> EventLoopServer.start(transport, parts, DEFAULT_POOL));
    }

    static final String DEFAULT = "platform";

    private ServerModels() {
    }

    static List<Model> all() {
        return ALL;
    }

    /** A model by id; {@code virtual+pool:N} sizes the pool. */
    static Optional<Model> byId(String id) {
        if (id.startsWith(POOL + ":")) {
            int n;
            try {
                n = Integer.parseInt(id.substring(POOL.length() + 1));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
            if (n < 1) {
                return Optional.empty();
            }
            return Optional.of(new Model(id, "virtual threads for sockets, transfers on " + n + " platform threads",
                    threaded((name, max) -> new PooledVirtualThreads(name, max, n))));
        }
        return ALL.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    static List<String> ids() {
        return ALL.stream().map(Model::id).toList();
    }
}
