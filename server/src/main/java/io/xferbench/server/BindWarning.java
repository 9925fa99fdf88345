package io.xferbench.server;

/** The warning of a server or proxy told to listen beyond loopback. */
final class BindWarning {
    private BindWarning() {
    }

    /**
     * Prints one line on stderr unless {@code bind} is loopback.
     *
     * @param exposed what anyone who can reach the listener can do, e.g. "read and write /srv/x"
     */
    static void unlessLoopback(String bind, String exposed, String token) {
        if (!"127.0.0.1".equals(bind) && !"localhost".equals(bind) && !"::1".equals(bind)) {
            System.err.println("xferbench-server: WARNING: listening on " + bind + ", not loopback: anyone who can reach it "
                    + "can " + exposed + (token.isEmpty() ? " (no --token set)" : ""));
        }
    }
}
