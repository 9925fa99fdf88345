package io.xferbench.server;

import io.xferbench.core.method.Availability;
import io.xferbench.server.loop.EventLoopServer;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.loop.EventLoopTransport;
import io.xferbench.server.loop.LookupPlacement;
import io.xferbench.server.model.ServerListener;
import io.xferbench.server.thread.ConnectionThreads;
import io.xferbench.server.thread.PlatformPollers;
import io.xferbench.server.thread.PlatformThreads;
import io.xferbench.server.thread.PooledVirtualThreads;
import io.xferbench.server.thread.ThreadedListener;
import io.xferbench.server.thread.VirtualThreads;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The server's I/O models (how connections get threads), by id, in the order tables show them. A new thread model is
 * one {@link ConnectionThreads} class plus its line here; a model that accepts
 * by itself is one {@link ServerListener}.
 */
public final class ServerModels {
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

    static final String VIRTUAL = "virtual";
    static final String POOL = "virtual+pool";
    public static final int DEFAULT_POOL = 8;

    private static final String EPOLL_SOCKETS = "Netty epoll event loops (one per core) for sockets, sendfile for download bodies";
    private static final String IO_URING_SOCKETS = "Netty io_uring event loops (one per core) for sockets, download bodies up to "
            + EventLoopTransport.IO_URING.copiedBodyLimit / 1024 + " KiB read and written with their header, larger ones spliced";
    /** The id suffix of an event-loop model that opens files on its loop. */
    public static final String INLINE = "-inline";

    private static final List<Model> ALL = List.of(
            new Model("platform", "a platform thread per connection, blocking I/O", threaded(PlatformThreads::new)),
            new Model(VIRTUAL, "a virtual thread per connection, the same blocking I/O (file I/O pins its carrier); "
                    + "the JDK's socket pollers on platform threads (" + PlatformPollers.PROPERTY + "=1), since with "
                    + "JDK 22+'s virtual pollers its scheduler starves connections at 1,000 busy ones",
                    threaded((name, max) -> {
                        PlatformPollers.request();
                        return new VirtualThreads(name, max);
                    })),
            new Model(POOL, "virtual threads for sockets, each transfer on a bounded pool of N platform threads "
                    + "(" + POOL + ":N, default " + DEFAULT_POOL + ")",
                    threaded((name, max) -> new PooledVirtualThreads(name, max, DEFAULT_POOL))),
            eventLoop(EventLoopTransport.EPOLL, EPOLL_SOCKETS),
            eventLoop(EventLoopTransport.IO_URING, IO_URING_SOCKETS),
            openOnLoop(EventLoopTransport.EPOLL, EPOLL_SOCKETS),
            openOnLoop(EventLoopTransport.IO_URING, IO_URING_SOCKETS));

    private static Model eventLoop(EventLoopTransport transport, String sockets) {
        String work = transport.lookupPlacement == LookupPlacement.RING
                ? ", a download's and HEAD's open and a STAT on the loop's ring (io_uring OPENAT and STATX: cached lookups "
                        + "inline, others on io-wq workers), the rest of the file work (hashing, generation, unlink, upload "
                        + "writes, cache steps) on a pool of "
                : ", file work (open, checksum, stat, unlink, upload writes) on a pool of ";
        return new Model(transport.model, sockets + work + DEFAULT_POOL + " platform threads", transport::availability,
                parts -> EventLoopServer.start(transport.model, transport, transport.lookupPlacement, parts, DEFAULT_POOL));
    }

    /** The same on the loop for a download's, HEAD's and STAT's open and checksum record, as nginx opens on its loop. */
    private static Model openOnLoop(EventLoopTransport transport, String sockets) {
        String id = transport.model + INLINE;
        return new Model(id, sockets + "; a download's, HEAD's and STAT's open and checksum-record lookup on the loop "
                + "(a cold-metadata open blocks it), the rest of the file work (hashing, generation, unlink, upload writes, "
                + "cache steps) on a pool of " + DEFAULT_POOL + " platform threads", transport::availability,
                parts -> EventLoopServer.start(id, transport, LookupPlacement.LOOP, parts, DEFAULT_POOL));
    }

    static final String DEFAULT = ServerConfig.DEFAULT_IO_MODEL;

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
