package io.xferbench.server;

import io.xferbench.core.method.TransferOptions;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The senders or receivers one connection has built, by method and options: buffers and adopted Netty
 * channels are set up once per connection, as a real server would, and closed with it.
 */
final class PerConnection<T extends AutoCloseable> implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(PerConnection.class.getName());

    /** Builds an instance for the connection. */
    @FunctionalInterface
    interface Factory<T> {
        T create() throws IOException;
    }

    private final Map<String, T> instances = new HashMap<>();

    T get(String methodId, TransferOptions options, Factory<T> factory) throws IOException {
        String key = key(methodId, options);
        T instance = instances.get(key);
        if (instance == null) {
            instance = factory.create();
            instances.put(key, instance);
        }
        return instance;
    }

    /** Closes and forgets one instance (after it failed mid-transfer, its state cannot be trusted). */
    void discard(String methodId, TransferOptions options) {
        closeQuietly(methodId, instances.remove(key(methodId, options)));
    }

    @Override
    public void close() {
        instances.forEach(this::closeQuietly);
        instances.clear();
    }

    private void closeQuietly(String what, T instance) {
        if (instance != null) {
            try {
                instance.close();
            } catch (Exception e) {
                LOG.fine(() -> "closing " + what + ": " + e);
            }
        }
    }

    private static String key(String methodId, TransferOptions options) {
        return methodId + "/" + options.bufferSize() + "/" + options.unaligned();
    }
}
