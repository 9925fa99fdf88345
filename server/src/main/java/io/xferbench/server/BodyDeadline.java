package io.xferbench.server;

/**
 * A threaded connection's deadline while a request's body moves ({@link ConnectionRegistry#transferring}): the body's
 * own length sets its budget (idle timeout + length / --min-rate, from the moment it starts), and no byte moving for
 * the idle timeout ends it sooner. For a named file that length is the file's, known once it is open: the request's
 * size means nothing there.
 */
final class BodyDeadline {
    private final ConnectionRegistry registry;
    private final int id;
    private final ServerConfig config;

    BodyDeadline(ConnectionRegistry registry, int id, ServerConfig config) {
        this.registry = registry;
        this.id = id;
        this.config = config;
    }

    /** A body of {@code bytes} moves from now. */
    void moves(long bytes) {
        registry.transferring(id, config.transferBudget(bytes), config.idleTimeout());
    }

    /** The body is through or failed; call before the socket may be closed. */
    void moved() {
        registry.transferred(id);
    }
}
