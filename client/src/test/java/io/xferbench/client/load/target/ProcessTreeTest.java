package io.xferbench.client.load.target;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A server's CPU from /proc: all of it, and its JIT compiler threads' share. */
class ProcessTreeTest {
    @Test
    void aJvmsCompilerThreadsHaveSpentSomeOfItsCpuAndAProcessWithoutThemNone() throws Exception {
        // This JVM compiled JUnit and the test on its way here: at least a clock tick on its compiler threads.
        ProcessTree self = new ProcessTree(ProcessHandle.current());
        double jit = self.jitCpuMicros();
        assertThat(jit).isPositive().isLessThanOrEqualTo(self.cpuMicros());

        Process sleep = new ProcessBuilder("sleep", "30").start();
        try {
            assertThat(new ProcessTree(sleep.toHandle()).jitCpuMicros()).isZero();
        } finally {
            sleep.destroy();
            sleep.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
