package io.xferbench.client.process;

import java.util.List;
import java.util.concurrent.TimeUnit;

/** Stopping a child process a run started: SIGTERM, a grace period, then SIGKILL; then its descendants. */
public final class GracefulStop {
    private static final long GRACE_SECONDS = 10;

    private GracefulStop() {
    }

    public static void stop(Process p) {
        List<ProcessHandle> descendants = p.descendants().toList();
        p.destroy();
        try {
            if (!p.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(GRACE_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        // A worker left behind by a master that died first must not outlive the run.
        descendants.forEach(ProcessHandle::destroyForcibly);
    }
}
