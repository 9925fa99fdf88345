package io.xferbench.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The "Threads:" line of /proc/PID/status: parsed from a fixed text, and read from live processes. */
@Timeout(60)
class LiveThreadsTest {
    private static final int EXTRA = 40;

    @Test
    void theThreadsLineIsParsedFromAStatusText() {
        assertThat(LiveThreads.parse("Name:\tjava\nUmask:\t0022\nThreads:\t137\nSigQ:\t0/7823\n")).isEqualTo(137);
        assertThat(LiveThreads.parse("Name:\tjava\nThreads:\t9")).as("last line, no newline").isEqualTo(9);
        assertThat(LiveThreads.parse("Name:\tjava\nThreadsX: 3\n")).isEqualTo(-1);
        assertThat(LiveThreads.parse("Name:\tjava\n")).isEqualTo(-1);
    }

    @Test
    void anotherProcessIsCountedUntilItIsGone() throws Exception {
        MethodAssumptions.assumeAvailable("live threads", Files.isReadable(Path.of("/proc/self/status")), "no procfs");
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try (LiveThreads kept = LiveThreads.of(sleep.pid())) {
            assertThat(LiveThreads.countOf(sleep.pid())).isEqualTo(1);
            assertThat(kept.count()).isEqualTo(1);
            sleep.destroyForcibly();
            assertThat(sleep.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(kept.count()).as("the file kept open, after the process was reaped").isEqualTo(-1);
            assertThat(LiveThreads.countOf(sleep.pid())).isEqualTo(-1);
        } finally {
            sleep.destroyForcibly();
        }
    }

    /** Other JVM threads (compiler, GC) may come and go meanwhile, hence the margin of 10 out of 40. */
    @Test
    void thisProcessCountsThreadsItStarts() throws Exception {
        MethodAssumptions.assumeAvailable("live threads", Files.isReadable(Path.of("/proc/self/status")), "no procfs");
        try (LiveThreads self = LiveThreads.self()) {
            int before = self.count();
            assertThat(before).isPositive();
            CountDownLatch release = new CountDownLatch(1);
            List<Thread> extra = new ArrayList<>();
            try {
                for (int i = 0; i < EXTRA; i++) {
                    extra.add(Thread.ofPlatform().start(() -> {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }));
                }
                assertThat(self.count()).isGreaterThanOrEqualTo(before + EXTRA - 10);
                assertThat(LiveThreads.countOf(ProcessHandle.current().pid())).isGreaterThanOrEqualTo(before + EXTRA - 10);
            } finally {
                release.countDown();
                for (Thread t : extra) {
                    t.join();
                }
            }
        }
    }
}
