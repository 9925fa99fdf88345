package io.xferbench.server.limits;

import io.xferbench.server.config.ServerConfig;

/**
 * A threaded connection's deadline while a request's body moves ({@link ConnectionRegistry#transferring}): the body's
 * own length sets its budget (idle timeout + length / --min-rate, from the moment it starts), and no byte moving for
 * the idle timeout ends it sooner. For a named file that length is the file's, known once it is open: the request's
 * size means nothing there.
 */
public final class BodyDeadline {
    private final ConnectionRegistry registry;
    private final int id;
    private final ServerConfig config;

    public BodyDeadline(ConnectionRegistry registry, int id, ServerConfig config) {
        this.registry = registry;
        this.id = id;
        this.config = config;
    }

    /** A body of {@code bytes} moves from now. */
    public void moves(long bytes) {
        registry.transferring(id, config.transferBudget(bytes), config.idleTimeout());
    }

    /** The body is through or failed; call before the socket may be closed. */
    public void moved() {
        registry.transferred(id);
    }
}
