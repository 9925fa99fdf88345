package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourceUsageTest {

    @Test
    void threadCpuTimeMatchesTheJvmsOwnClockForThisThread() throws Exception {
        // Spin until the JVM's per-thread CPU clock says 100 ms were spent, however long that takes on a busy
        // machine; getrusage(RUSAGE_THREAD) must agree (it reads the same kernel accounting, at us resolution).
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        ResourceUsage before = ResourceUsage.thread();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long x = 0;
        while (threads.getCurrentThreadCpuTime() - cpu0 < 100_000_000L) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        long jvmMicros = (threads.getCurrentThreadCpuTime() - cpu0) / 1000;
        ResourceUsage spent = ResourceUsage.thread().minus(before);
        assertThat(x).isPositive();
        assertThat(spent.userMicros() + spent.systemMicros()).isBetween(jvmMicros * 8 / 10, jvmMicros * 12 / 10 + 20_000);
    }

    @Test
    void processUsageIsAtLeastThreadUsage() throws Exception {
        ResourceUsage thread = ResourceUsage.thread();
        ResourceUsage process = ResourceUsage.process();
        assertThat(process.userMicros() + process.systemMicros())
                .isGreaterThanOrEqualTo(thread.userMicros() + thread.systemMicros());
    }
}
