package io.xferbench.client;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.xferbench.core.Sizes;
import java.lang.management.ManagementFactory;
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
        require(connections, perConnection, maxDirectMemory());
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

    /** -XX:MaxDirectMemorySize, or when it is not set (0) the JDK's default: the maximum heap. */
    static long maxDirectMemory() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        long set = hotspot == null ? 0 : Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
        return set > 0 ? set : Runtime.getRuntime().maxMemory();
    }
}
