package io.xferbench.core.uring;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** Waiting for an engine's work from the thread that asked for it. */
final class Completion {
    private Completion() {
    }

    /**
     * Waits for {@code done} even when interrupted (the interrupt is kept for the caller): returning earlier would
     * let the caller free buffers and close descriptors the kernel still uses. Nothing waits forever: a stalled peer
     * is shut down by the server's deadline, which fails the operations in flight.
     */
    static void await(CompletableFuture<Void> done, String what) throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    done.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    throw cause instanceof IOException io ? io : new IOException(what + " failed: " + cause, cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
