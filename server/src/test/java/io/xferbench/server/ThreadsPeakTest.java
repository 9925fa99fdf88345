package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.measure.Measurements;
import io.xferbench.server.measure.ThreadCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The peak of live threads a measurement window reports: procfs' count, sampled as transfers start and finish. */
class ThreadsPeakTest {
    private static final int EXTRA = 40;

    /**
     * Threads alive while a transfer starts and gone when the window ends: the report keeps the peak, not the count
     * at the end. Other JVM threads (compiler, GC) may come and go meanwhile, hence the margin of 10 out of 40.
     */
    @Test
    void aWindowKeepsThePeakOfThreadsAliveWhenATransferStarted() throws Exception {
        MethodAssumptions.assumeAvailable("live threads", Files.isReadable(Path.of("/proc/self/status")), "no procfs");
        try (Measurements measurements = new Measurements(MeasurementReport.SERVER)) {
            Measurements.Window window = measurements.begin(1, false);
            int before = ThreadCounts.live();
            CountDownLatch release = new CountDownLatch(1);
            List<Thread> extra = new ArrayList<>();
            for (int i = 0; i < EXTRA; i++) {
                extra.add(Thread.ofPlatform().start(() -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            measurements.started(2, "127.0.0.1:40000");
            release.countDown();
            for (Thread t : extra) {
                t.join();
            }
            measurements.finished(2);
            MeasurementReport report = window.end();
            assertThat(before).isPositive();
            assertThat(report.threadsPeak()).isGreaterThanOrEqualTo(before + EXTRA - 10);
        }
    }
}
