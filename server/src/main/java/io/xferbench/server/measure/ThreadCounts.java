package io.xferbench.server.measure;

import io.xferbench.core.metrics.LiveThreads;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * What the reports count of this process's threads: threads started so far, the virtual-thread carriers, and the
 * threads alive now as the kernel counts them.
 */
public final class ThreadCounts {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** JDK 24+ ({@code jdk.management.VirtualThreadSchedulerMXBean}); looked up by name so JDK 21 still runs. */
    private static final String SCHEDULER = "jdk.management:type=VirtualThreadScheduler";

    private static final LiveThreads LIVE = LiveThreads.self();

    private ThreadCounts() {
    }

    /**
     * Threads of this process alive now, as the kernel counts them: the JVM's and the io_uring io-wq workers
     * ({@code iou-wrk-*}, which the JVM does not know) alike; -1 where there is no procfs. One pread(2).
     */
    public static int live() {
        return LIVE.count();
    }

    /** Platform threads started since the JVM began (carriers included; virtual threads are not counted). */
    static long started() {
        return THREADS.getTotalStartedThreadCount();
    }

    /**
     * Carrier threads the virtual-thread scheduler has now, or -1 where the JDK does not say. Its idle carriers stay
     * about 30 s, so at the end of a window this is close to the window's peak.
     */
    static int carriers() {
        try {
            Object size = ManagementFactory.getPlatformMBeanServer().getAttribute(new ObjectName(SCHEDULER), "PoolSize");
            return size instanceof Number n ? n.intValue() : -1;
        } catch (JMException | RuntimeException e) {
            return -1;
        }
    }
}
