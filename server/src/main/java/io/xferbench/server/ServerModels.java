package io.xferbench.server;

import java.util.List;
import java.util.Optional;

/**
 * The server's I/O models (how connections get threads), by id, in the order tables show them. A new model is one
 * {@link ConnectionThreads} class plus its line here.
 */
final class ServerModels {
    /** One model: its id on {@code --io-model}, what it is, and how to build its threads. */
    record Model(String id, String summary, Factory factory) {
    }

    @FunctionalInterface
    interface Factory {
        ConnectionThreads create(String name, int maxConnections);
    }

    private static final List<Model> ALL = List.of(
            new Model("platform", "a platform thread per connection, blocking I/O", PlatformThreads::new),
            new Model("virtual", "a virtual thread per connection, the same blocking I/O (file I/O pins its carrier)",
                    VirtualThreads::new));

    static final String DEFAULT = "platform";

    private ServerModels() {
    }

    static List<Model> all() {
        return ALL;
    }

    static Optional<Model> byId(String id) {
        return ALL.stream().filter(m -> m.id().equals(id)).findFirst();
    }

    static List<String> ids() {
        return ALL.stream().map(Model::id).toList();
    }
}
