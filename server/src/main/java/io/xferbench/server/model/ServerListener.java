package io.xferbench.server.model;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.measure.Measurements;
import java.time.Duration;

/**
 * What accepts and serves a server's connections, as one I/O model builds it (see {@code ServerModels}): the JDK
 * acceptor with a thread per connection ({@code ThreadedListener}), or an event loop ({@code EventLoopServer}).
 */
public interface ServerListener {

    /** The port it listens on. */
    int port();

    /** Connections open now. */
    int openConnections();

    /** Threads it has alive now to serve connections (platform or virtual, busy or idle). */
    int workerThreads();

    /**
     * Graceful stop: no new connections, idle ones closed now, in-flight requests get {@code grace} to finish, then
     * everything left is closed.
     */
    void stop(Duration grace);

    /** What a model needs from the server to serve its connections; {@code seams} are what it serves requests through. */
    record Parts(ServerConfig config, DataDirectory data, Measurements measurements,
                 BufferBudget buffers, InfoAnswer info, Seams seams) {
    }
}
