package io.xferbench.server.loop;

import io.netty.channel.Channel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The live channels of an event-loop model: admits at most {@code maxConnections} (the next one is answered BUSY by
 * its {@link EventLoopConnection}), and at shutdown tells each one to stop, on its own loop, where it knows whether a
 * request is in flight.
 */
public final class EventLoopConnections {
    private final int maxConnections;
    private final AtomicInteger admitted = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    private final Set<Channel> live = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    EventLoopConnections(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** A new connection's id, for the measurement windows. */
    public int nextId() {
        return ids.incrementAndGet();
    }

    public int maxConnections() {
        return maxConnections;
    }

    /** Tracks {@code channel} until {@link #closed}; @return whether it is within the limit and may be served */
    public boolean admit(Channel channel) {
        live.add(channel);
        if (admitted.incrementAndGet() > maxConnections) {
            admitted.decrementAndGet();
            return false;
        }
        return true;
    }

    /** {@code channel} closed; {@code wasAdmitted} as {@link #admit} answered. */
    public void closed(Channel channel, boolean wasAdmitted) {
        live.remove(channel);
        if (wasAdmitted) {
            admitted.decrementAndGet();
        }
    }

    /** Connections being served (admitted and open). */
    int served() {
        return admitted.get();
    }

    public boolean stopping() {
        return stopping;
    }

    /** Starts shutdown: idle connections close now, busy ones after their request. */
    void stop() {
        stopping = true;
        for (Channel c : live) {
            c.pipeline().fireUserEventTriggered(EventLoopConnection.STOP);
        }
    }

    /** Waits up to {@code grace} for every connection to close; @return whether they all did */
    boolean awaitClosed(Duration grace) throws InterruptedException {
        long end = System.nanoTime() + grace.toNanos();
        while (!live.isEmpty()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    void closeAll() {
        for (Channel c : live) {
            c.close();
        }
    }
}
