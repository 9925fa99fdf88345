package io.xferbench.server.loop;

/**
 * The submission-queue entries of each io_uring ring of the event-loop models ({@code --io-uring-ring-size}; the
 * completion queue is Netty's default for it). Netty submits when the queue is full or at the end of a loop
 * iteration, so the size bounds how many requests' writes wait in one batch, and with them how many copied bodies
 * are in flight at once: smaller rings enter the kernel more often, larger ones keep more body buffers live between
 * their read and their write (docs/load.md, "io_uring's ring size").
 */
public final class EventLoopRingSize {
    /**
     * A quarter of Netty's own default ({@code io.netty.iouring.ringSize}, 128): in an A/B of the two, 32 entries
     * served 15 % more downloads per second at 1,000 connections and 8 % fewer at 50 (docs/load.md, "io_uring's ring
     * size"); this server is benchmarked for many connections.
     */
    public static final int DEFAULT = 32;

    private static volatile int entries = DEFAULT;

    private EventLoopRingSize() {
    }

    /** Sets the size for rings made from now on (checked by {@link io.xferbench.core.cli.Converters.RingEntries}). */
    public static void set(int n) {
        entries = n;
    }

    static int entries() {
        return entries;
    }
}
