package io.xferbench.nativeio;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResourceUsageTest {

    @Test
    void threadCpuTimeGrowsWithWorkDoneOnThisThread() throws Exception {
        ResourceUsage before = ResourceUsage.thread();
        long x = 0;
        long deadline = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() < deadline) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        ResourceUsage spent = ResourceUsage.thread().minus(before);
        assertThat(x).isPositive();
        // 200 ms of spinning: at least 50 ms must be charged to this thread even on a loaded machine.
        assertThat(spent.userMicros() + spent.systemMicros()).isGreaterThan(50_000);
    }

    @Test
    void processUsageIsAtLeastThreadUsage() throws Exception {
        ResourceUsage thread = ResourceUsage.thread();
        ResourceUsage process = ResourceUsage.process();
        assertThat(process.userMicros() + process.systemMicros())
                .isGreaterThanOrEqualTo(thread.userMicros() + thread.systemMicros());
    }
}
