package io.xferbench.core.method.relay;

import io.xferbench.core.method.Relay;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two blocking one-way pumps, one per direction: upstream → client on a helper thread, client → upstream on the
 * caller's. A pump that meets the end of its input shuts down the output of the other socket (the peer sees the
 * FIN after every byte) and returns; an error in either (any Throwable) shuts both sockets down both ways so the
 * other pump's blocking read or write returns at once, and the relay fails with an IOException.
 */
final class DuplexPump {
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** How long an aborted relay waits for its helper's pump to return (a shut-down socket returns at once). */
    private static final Duration HELPER_EXIT = Duration.ofSeconds(10);

    /** Moves bytes from {@code from} to {@code to} until the end of {@code from}; returns how many. */
    @FunctionalInterface
    interface OneWay {
        long pump(SocketChannel from, SocketChannel to) throws IOException;
    }

    private DuplexPump() {
    }

    static Relay.Relayed run(SocketChannel client, SocketChannel upstream, OneWay clientToUpstream, OneWay upstreamToClient)
            throws IOException {
        Direction back = new Direction(upstream, client, upstreamToClient, client, upstream);
        Thread helper = new Thread(back, "xferbench-relay-" + THREADS.incrementAndGet());
        helper.setDaemon(true);
        helper.start();
        Direction forth = new Direction(client, upstream, clientToUpstream, client, upstream);
        forth.run();
        try {
            helper.join();
        } catch (InterruptedException e) {
            abort(client, upstream);
            // The shutdown ends the helper's pump at once; wait for it, so that what the pumps use (a relay's own
            // descriptors, say) outlives them.
            awaitQuietly(helper);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while relaying");
        }
        IOException failure = forth.failure != null ? forth.failure : back.failure;
        if (failure != null) {
            Throwable other = failure == forth.failure ? back.failure : null;
            if (other != null) {
                failure.addSuppressed(other);
            }
            throw failure;
        }
        return new Relay.Relayed(forth.bytes, back.bytes);
    }

    private static void awaitQuietly(Thread helper) {
        long deadline = System.nanoTime() + HELPER_EXIT.toNanos();
        while (helper.isAlive() && System.nanoTime() < deadline) {
            try {
                helper.join(HELPER_EXIT);
            } catch (InterruptedException again) {
                // Still interrupted; keep waiting out the bound.
            }
        }
    }

    /** Stops both directions: every blocked read returns end of stream, every blocked write fails. */
    static void abort(SocketChannel a, SocketChannel b) {
        for (SocketChannel s : new SocketChannel[] {a, b}) {
            try {
                s.shutdownInput();
            } catch (IOException ignored) {
                // Already shut or closed.
            }
            try {
                s.shutdownOutput();
            } catch (IOException ignored) {
                // Already shut or closed.
            }
        }
    }

    private static final class Direction implements Runnable {
        private final SocketChannel from;
        private final SocketChannel to;
        private final OneWay pump;
        private final SocketChannel a;
        private final SocketChannel b;
        volatile long bytes;
        volatile IOException failure;

        Direction(SocketChannel from, SocketChannel to, OneWay pump, SocketChannel a, SocketChannel b) {
            this.from = from;
            this.to = to;
            this.pump = pump;
            this.a = a;
            this.b = b;
        }

        @Override
        public void run() {
            try {
                bytes = pump.pump(from, to);
                to.shutdownOutput();
            } catch (IOException e) {
                failure = e;
                abort(a, b);
            } catch (RuntimeException | Error e) {
                // An Error too (say OutOfMemoryError allocating the buffer): on the helper thread nothing else would
                // end the other direction, whose blocking read would hold the client forever.
                failure = new IOException("relay failed: " + e, e);
                abort(a, b);
            }
        }
    }
}
