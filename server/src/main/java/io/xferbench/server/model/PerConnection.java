package io.xferbench.server.model;

import io.xferbench.core.protocol.Status;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.server.limits.BufferBudget;
import io.xferbench.server.request.Refused;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The senders or receivers one connection has built, by method and options: buffers and adopted Netty channels are
 * set up once per connection, as a real server would, and closed with it. Bounded: at most {@link #MAX_INSTANCES}
 * are kept (the least recently used is closed to make room), and each instance's buffer is reserved from the
 * server's {@link BufferBudget} while it lives.
 */
public final class PerConnection<T extends AutoCloseable> implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(PerConnection.class.getName());
    /** A benchmark alternates a handful of methods and sizes on one connection; more is churn, not reuse. */
    public static final int MAX_INSTANCES = 8;

    /** Builds an instance for the connection. */
    @FunctionalInterface
    public interface Factory<T> {
        T create() throws IOException;
    }

    /** The server's buffer budget would be passed: answered BUSY, the connection goes on. */
    public static final class BudgetExceeded extends Refused {
        BudgetExceeded(String message) {
            super(Status.BUSY, message);
        }
    }

    private record Entry<T>(T instance, long bytes) {
    }

    /** What an instance is kept under: a record, so a lookup per request builds no string. */
    private record Key(String methodId, TransferOptions options) {
        @Override
        public String toString() {
            return methodId + "/" + options.bufferSize() + "/" + options.unaligned();
        }
    }

    private final BufferBudget budget;
    private final Map<Key, Entry<T>> instances = new LinkedHashMap<>(16, 0.75f, true);

    public PerConnection(BufferBudget budget) {
        this.budget = budget;
    }

    /** @param bytes the buffer memory the instance will hold ({@code TransferMethod.bufferBytes}) */
    public T get(String methodId, TransferOptions options, long bytes, Factory<T> factory) throws IOException {
        Key key = new Key(methodId, options);
        Entry<T> entry = instances.get(key);
        if (entry != null) {
            return entry.instance();
        }
        while (instances.size() >= MAX_INSTANCES) {
            evictEldest();
        }
        // This connection gives back its own idle buffers before it is told the server has no room.
        while (!budget.tryReserve(bytes)) {
            if (instances.isEmpty()) {
                throw new BudgetExceeded("transfer buffers of " + budget.reserved() + " bytes are in use server-wide; "
                        + bytes + " more would pass --max-buffer-memory " + budget.limit());
            }
            evictEldest();
        }
        T instance;
        try {
            instance = factory.create();
        } catch (IOException | RuntimeException | Error e) {
            budget.release(bytes);
            throw e;
        }
        instances.put(key, new Entry<>(instance, bytes));
        return instance;
    }

    /** Instances kept now. */
    int size() {
        return instances.size();
    }

    /** Closes and forgets one instance (after it failed mid-transfer, its state cannot be trusted). */
    public void discard(String methodId, TransferOptions options) {
        Key key = new Key(methodId, options);
        closeQuietly(key, instances.remove(key));
    }

    @Override
    public void close() {
        instances.forEach(this::closeQuietly);
        instances.clear();
    }

    private void evictEldest() {
        Iterator<Map.Entry<Key, Entry<T>>> eldest = instances.entrySet().iterator();
        Map.Entry<Key, Entry<T>> e = eldest.next();
        eldest.remove();
        closeQuietly(e.getKey(), e.getValue());
    }

    private void closeQuietly(Key what, Entry<T> entry) {
        if (entry == null) {
            return;
        }
        budget.release(entry.bytes());
        try {
            entry.instance().close();
        } catch (Exception e) {
            LOG.fine(() -> "closing " + what + ": " + e);
        }
    }
}
