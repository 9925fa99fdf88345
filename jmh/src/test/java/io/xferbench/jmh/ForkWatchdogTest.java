package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A fork behind a wrapper that does not exec watches the JVM above the wrapper, not the wrapper. */
class ForkWatchdogTest {

    @Test
    void theHostOfAProcessBehindAShellIsTheJvmAboveTheShell() throws Exception {
        // bash runs sleep as a child (the trailing ':' keeps it from exec'ing), as `perf stat -- java ...` would.
        Process shell = new ProcessBuilder("bash", "-c", "sleep 60; :").start();
        try {
            ProcessHandle sleep = awaitChild(shell.toHandle());
            ProcessHandle wrapper = sleep.parent().orElseThrow();
            assertThat(wrapper.pid()).isEqualTo(shell.pid());

            assertThat(ForkWatchdog.host(wrapper).pid()).isEqualTo(ProcessHandle.current().pid());
        } finally {
            shell.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            shell.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aJvmParentIsTheHost() {
        ProcessHandle self = ProcessHandle.current();
        assertThat(ForkWatchdog.host(self)).isEqualTo(self);
    }

    private static ProcessHandle awaitChild(ProcessHandle shell) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            var child = shell.children().findFirst();
            if (child.isPresent()) {
                return child.get();
            }
            Thread.sleep(10);
        }
        throw new AssertionError("bash started no child in 5 s");
    }
}
