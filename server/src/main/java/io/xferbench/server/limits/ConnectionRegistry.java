package io.xferbench.server.limits;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Live connections with a deadline each, enforced by one reaper thread. Blocking channels have no read
 * timeout (and switching them to non-blocking would change every measured method's syscalls), so a
 * connection that stalls past its deadline is ended from outside, which unblocks its thread. Also lets
 * shutdown end idle connections at once while letting busy ones finish.
 *
 * <p>Ending from outside shuts the socket down both ways and never closes it: the connection's own thread closes
 * it when it returns. A method on the native shim calls the JDK's fd number directly, and a close from here
 * between two of its syscalls would hand its next one to whatever descriptor took the number
 * (SpliceRelayFdReuseTest shows that for the proxy's relays). A shutdown wakes every blocked socket call as a close
 * does: reads see end of stream, writes fail.
 */
public final class ConnectionRegistry implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ConnectionRegistry.class.getName());
    private static final long REAP_INTERVAL_MS = 100;

    /**
     * What a connection is doing, and so how long it may take. CONNECTING: its thread is in a blocking connect of a
     * channel of its own (a proxy's upstream); past the deadline only the thread is interrupted, which closes that
     * channel and ends the connect, and the connection itself goes on (see {@link #connected}). LINGERING: its last
     * answer is out and what the client still sends is drained ({@link LingeringClose}). TRANSFERRING: a request's body
     * moves (see {@link #transferring}); besides its deadline, it ends once no byte moved for its stall limit.
     */
    public enum State { AWAITING_REQUEST, BUSY, TRANSFERRING, CONNECTING, LINGERING }

    private static final class Entry {
        final SocketChannel socket;
        final Thread thread;
        volatile State state;
        volatile long deadlineNanos;
        /** Guarded by this entry: once removed, the thread serves someone else and must not be interrupted. */
        boolean removed;
        /** Guarded by this entry: the socket was shut down from outside (once is enough). */
        boolean ended;
        /** Guarded by this entry: whether a TRANSFERRING body still moves. */
        final StallWatch stall = new StallWatch();

        Entry(SocketChannel socket, Thread thread) {
            this.socket = socket;
            this.thread = thread;
        }
    }

    private final Map<Integer, Entry> live = new ConcurrentHashMap<>();
    private final Thread reaper;
    private volatile boolean closed;
    private volatile boolean stopping;

    public ConnectionRegistry() {
        reaper = new Thread(this::reapLoop, "xferbench-reaper");
        reaper.setDaemon(true);
        reaper.start();
    }

    /** Registers the calling thread's connection. */
    public void add(int id, SocketChannel socket) {
        live.put(id, new Entry(socket, Thread.currentThread()));
    }

    /** Deregisters the calling thread's connection and clears any interrupt the reaper gave it. */
    public void remove(int id) {
        Entry e = live.remove(id);
        if (e != null) {
            synchronized (e) {
                e.removed = true;
            }
        }
        Thread.interrupted();
    }

    /** The connection is in {@code state} and must leave it within {@code budget}. */
    public void enter(int id, State state, Duration budget) {
        Entry e = live.get(id);
        if (e != null) {
            synchronized (e) { // against the reaper's CONNECTING check: no interrupt once the state has moved on
                e.stall.stop();
                e.deadlineNanos = System.nanoTime() + Math.min(budget.toNanos(), Long.MAX_VALUE / 4);
                e.state = state;
            }
        }
    }

    /**
     * A request's body moves from now: it must be through within {@code budget}, and the connection ends (logged) as
     * soon as no byte moved for {@code stall} ({@link StallWatch}). The caller leaves with {@link #transferred} before
     * its socket may be closed: a look reads the socket's descriptor.
     */
    void transferring(int id, Duration budget, Duration stall) {
        Entry e = live.get(id);
        if (e != null) {
            synchronized (e) {
                long now = System.nanoTime();
                e.deadlineNanos = now + Math.min(budget.toNanos(), Long.MAX_VALUE / 4);
                e.stall.start(now, stall);
                e.state = State.TRANSFERRING;
            }
        }
    }

    /** The body is through (or failed): BUSY again, with the same deadline; no more looks at its socket. */
    public void transferred(int id) {
        Entry e = live.get(id);
        if (e != null) {
            synchronized (e) {
                e.stall.stop();
                if (e.state == State.TRANSFERRING) {
                    e.state = State.BUSY;
                }
            }
        }
    }

    /**
     * The calling thread's connect (entered as CONNECTING) returned, and the connection is BUSY for {@code budget}
     * now. An interrupt the reaper gave it after the connect had returned found no blocking call: cleared here, so it
     * cannot end the next one.
     */
    public void connected(int id, Duration budget) {
        enter(id, State.BUSY, budget);
        Thread.interrupted();
    }

    public int size() {
        return live.size();
    }

    /** Whether the server is shutting down: connections close after their current request. */
    public boolean stopping() {
        return stopping;
    }

    /**
     * Starts shutdown: closes every connection waiting for a request; busy ones finish their request. A
     * connection entering AWAITING_REQUEST checks {@link #stopping()} after setting its state, so none is missed.
     */
    public void closeIdle() {
        stopping = true;
        live.values().stream().filter(e -> e.state == State.AWAITING_REQUEST).forEach(ConnectionRegistry::end);
    }

    public void closeAll() {
        live.values().forEach(ConnectionRegistry::end);
    }

    private void reapLoop() {
        while (!closed) {
            long now = System.nanoTime();
            for (Map.Entry<Integer, Entry> m : live.entrySet()) {
                Entry e = m.getValue();
                if (e.state == State.TRANSFERRING && stalled(m.getKey(), e, now)) {
                    continue;
                }
                if (e.state != null && now - e.deadlineNanos > 0 && e.socket.isOpen()) {
                    synchronized (e) {
                        if (e.state == State.CONNECTING && now - e.deadlineNanos > 0) {
                            if (!e.removed) {
                                // Ends the connect only (an interruptible channel closes); the client is answered.
                                e.thread.interrupt();
                            }
                            continue;
                        }
                        if (!e.removed && !e.ended) {
                            LOG.info("conn " + m.getKey() + ": closed after its " + switch (e.state) {
                                case AWAITING_REQUEST -> "idle/header timeout";
                                case LINGERING -> "linger";
                                default -> "transfer deadline";
                            } + " passed");
                            end(e);
                            // The shutdown unblocks socket I/O; the interrupt also ends waits on anything else (Netty futures).
                            e.thread.interrupt();
                        }
                    }
                }
            }
            try {
                Thread.sleep(REAP_INTERVAL_MS);
            } catch (InterruptedException ex) {
                return;
            }
        }
    }

    /**
     * Looks at a moving body's socket when a look is due; ends the connection (and says so) when nothing moved for its
     * stall limit. Under the entry's lock, in TRANSFERRING: its thread has not closed the socket yet.
     */
    private static boolean stalled(int id, Entry e, long now) {
        synchronized (e) {
            if (e.state != State.TRANSFERRING || e.removed || e.ended || !e.stall.watching() || now - e.stall.nextLookNanos() < 0) {
                return false;
            }
            if (!e.stall.stalled(now, StallWatch.count(e.socket))) {
                return false;
            }
            long seconds = TimeUnit.NANOSECONDS.toSeconds(e.stall.limitNanos());
            LOG.info("conn " + id + ": closed: no byte of its transfer moved for its idle timeout (" + seconds + "s)");
            end(e);
            e.thread.interrupt();
            return true;
        }
    }

    /**
     * Shuts the socket down both ways, which also reaches a Netty method's dup of its fd; the connection's thread
     * closes it (see the class comment).
     */
    private static void end(Entry e) {
        synchronized (e) {
            if (e.removed || e.ended) {
                return;
            }
            e.ended = true;
        }
        try {
            // Output first: the peer sees a clean end of stream before the connection's own thread wakes up
            // (on the input shutdown) and could write anything misleading.
            e.socket.shutdownOutput();
        } catch (IOException ignored) {
            // Already shut down, closed, or not connected.
        }
        try {
            e.socket.shutdownInput();
        } catch (IOException ignored) {
            // Already shut down, closed, or not connected.
        }
    }

    @Override
    public void close() {
        closed = true;
        reaper.interrupt();
    }
}
