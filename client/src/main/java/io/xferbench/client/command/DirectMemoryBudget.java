package io.xferbench.client.command;

import io.xferbench.core.JvmDirectMemory;
import io.xferbench.core.Sizes;
import java.util.Locale;

/**
 * Whether a round's connections fit in the JVM's direct memory: each holds direct buffers (the 1 MiB receive buffer,
 * --buffer for uploads) for the whole row, and running out ends the run with an OutOfMemoryError and its stack trace.
 * Checked before any work, so the answer is a usage error naming what to change.
 */
final class DirectMemoryBudget {
    private DirectMemoryBudget() {
    }

    /** Refuses (IllegalArgumentException: exit 2) when {@code connections × perConnection} exceeds this JVM's limit. */
    static void require(int connections, long perConnection) {
        require(connections, perConnection, JvmDirectMemory.max());
    }

    static void require(int connections, long perConnection, long maxDirectMemory) {
        long needed = connections * perConnection;
        if (needed > maxDirectMemory) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--concurrency %d needs about %s of direct memory "
                    + "(%s per connection), more than this JVM's %s: fewer connections, a smaller --buffer, or a larger "
                    + "-XX:MaxDirectMemorySize", connections, Sizes.format(needed), Sizes.format(perConnection),
                    Sizes.format(maxDirectMemory)));
        }
    }
}
