package io.xferbench.jmh.drain;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark's side of a {@link DrainServer}: starts it as a child JVM, connects to it over loopback and waits,
 * without syscalls, until it has received a given number of bytes.
 */
public final class DrainServerProcess implements AutoCloseable {
    /** A receiver that makes no progress for this long is dead or wedged; the op fails instead of hanging. */
    private static final long STALL_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final HelperJvm child;
    private final SharedCounters shared;

    private DrainServerProcess(HelperJvm child) {
        this.child = child;
        this.shared = child.shared();
    }

    /** Starts a drain for bodies of {@code size} bytes and returns once connected (blocking socket, TCP_NODELAY). */
    public static DrainServerProcess start(long size) throws IOException {
        return new DrainServerProcess(HelperJvm.start("drain", DrainServer.class, Long.toString(size)));
    }

    /** The connected socket the benchmark sends on. */
    public SocketChannel socket() {
        return child.socket();
    }

    /**
     * Spins until the drain has received {@code total} bytes in all. No syscall on the way: an acquire load and
     * {@link Thread#onSpinWait()}; the clock and the child's liveness are looked at only every 64 Ki spins.
     */
    public void awaitReceived(long total) throws IOException {
        long seen = shared.getAcquire(SharedCounters.RECEIVED);
        if (seen >= total) {
            return;
        }
        long lastSeen = seen;
        long progressAt = System.nanoTime();
        int spins = 0;
        while ((seen = shared.getAcquire(SharedCounters.RECEIVED)) < total) {
            Thread.onSpinWait();
            if ((++spins & 0xFFFF) == 0) {
                long now = System.nanoTime();
                if (seen != lastSeen) {
                    lastSeen = seen;
                    progressAt = now;
                }
                if (shared.getAcquire(SharedCounters.STATUS) < 0 || !child.isAlive()) {
                    throw new IOException("drain process failed after " + seen + " of " + total + " bytes: " + child.log());
                }
                if (now - progressAt > STALL_TIMEOUT_NANOS) {
                    throw new IOException("drain process made no progress for 60 s at " + seen + " of " + total + " bytes: " + child.log());
                }
            }
        }
    }

    /** CRC32C of the first body the drain received, or empty if it has not received one yet. */
    public OptionalInt firstCrc32c() {
        long v = shared.getAcquire(SharedCounters.FIRST_CRC);
        return v == 0 ? OptionalInt.empty() : OptionalInt.of((int) (v - 1));
    }

    /** Ends the connection: the drain sees EOF and exits. */
    @Override
    public void close() throws IOException {
        child.close();
    }
}
