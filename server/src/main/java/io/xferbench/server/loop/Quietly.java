package io.xferbench.server.loop;

/** Closing what an event-loop connection holds when nothing is left to do about a failure to close it. */
public final class Quietly {
    private Quietly() {
    }

    public static void close(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // Closed already (a file region closes its file too), or nothing left to do about it.
        }
    }
}
