package io.xferbench.server.limits;

import io.xferbench.core.JvmDirectMemory;
import io.xferbench.core.Sizes;

/**
 * How much {@code --max-buffer-memory} may admit: at most three quarters of the JVM's direct memory
 * ({@link JvmDirectMemory}). The budget reserves direct buffers (copy relays, channel-direct, O_DIRECT, io_uring) before
 * they are allocated; a budget past what the JVM can allocate admitted a request and then failed it with an
 * OutOfMemoryError (a relay's connection ended instead of a BUSY). The quarter left holds the direct buffers outside
 * the budget: the JDK's per-thread temporary buffers behind heap-buffer socket I/O, Netty's pools, frame buffers.
 */
public final class BufferMemoryLimit {
    private BufferMemoryLimit() {
    }

    /** What a budget may hold in a JVM whose direct memory is {@code maxDirectMemory}. */
    public static long capacity(long maxDirectMemory) {
        return maxDirectMemory - maxDirectMemory / 4;
    }

    /** {@code asked} cut to what this JVM can hold: the default 1 GiB in a JVM with less, or a config built in code. */
    public static long within(long asked) {
        return Math.min(asked, capacity(JvmDirectMemory.max()));
    }

    /**
     * An explicit {@code --max-buffer-memory} must fit: a limit the JVM cannot honour is a usage error, not a smaller
     * limit in silence (a run's BUSY answers would then name a limit nobody asked for).
     *
     * @throws IllegalArgumentException naming both numbers (exit 2)
     */
    public static void check(long asked, long maxDirectMemory) {
        long capacity = capacity(maxDirectMemory);
        if (asked > capacity) {
            throw new IllegalArgumentException("--max-buffer-memory " + Sizes.format(asked) + " is more than this JVM can "
                    + "allocate for buffers: " + Sizes.format(capacity) + " (three quarters of its direct memory, "
                    + Sizes.format(maxDirectMemory) + "): ask at most that, or raise -XX:MaxDirectMemorySize");
        }
    }
}
