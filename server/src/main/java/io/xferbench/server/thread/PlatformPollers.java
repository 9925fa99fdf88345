package io.xferbench.server.thread;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.logging.Logger;

/**
 * The JDK's socket pollers for the {@code virtual} model: platform threads ({@code jdk.pollerMode=1}, Linux's default
 * before JDK 22), not JDK 22+'s virtual-thread sub-pollers. A sub-poller that found events yields into its carrier's
 * local queue, so under steady load that queue never empties, and a carrier runs its local queue dry before it looks
 * at the scheduler's external queues: every virtual thread submitted from outside a carrier (a first start, a resume
 * after a monitor wait) then waits there for as long as the load lasts. With platform pollers the socket
 * wake-ups go to the external queues too, and all are served in turn (docs/robustness.md, "The {@code virtual} model
 * at 1,000 connections").
 */
public final class PlatformPollers {
    public static final String PROPERTY = "jdk.pollerMode";
    private static final String POLLER_CLASS = "sun.nio.ch.Poller";
    private static final Logger LOG = Logger.getLogger(PlatformPollers.class.getName());
    private static final String PLATFORM = "platform threads";
    private static final String VIRTUAL = "virtual threads";

    private PlatformPollers() {
    }

    /**
     * Asks for platform pollers, unless the JVM was started with {@code -Djdk.pollerMode} (to compare the modes). The
     * JDK reads the property once, when a virtual thread first waits for a socket; a JVM where one already has keeps
     * the pollers it started, and the log says so.
     */
    public static void request() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "1");
        }
        if (kind().equals(VIRTUAL)) {
            LOG.warning("virtual: this JVM's socket pollers were started as virtual threads before the model asked for "
                    + "platform ones; at many busy connections the JDK's scheduler can starve connections "
                    + "(docs/robustness.md)");
        }
    }

    /**
     * Starts the JDK's socket pollers now, in whatever mode is asked for by then. The JDK makes them once, when a
     * virtual thread first waits on a socket, and never retries: pollers first needed while descriptors are exhausted
     * (each takes an epoll descriptor) fail for good, and with them every later socket wait of every virtual thread.
     */
    static void startNow() {
        try {
            Class.forName(POLLER_CLASS);
        } catch (ClassNotFoundException e) {
            LOG.fine(() -> "no " + POLLER_CLASS + " in this JDK: its pollers start when first needed");
        } catch (ExceptionInInitializerError | NoClassDefFoundError e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new UncheckedIOException(new IOException("cannot start the JDK's socket pollers for virtual threads: " + cause, e));
        }
    }

    /**
     * The pollers this JVM runs, as INFO reports them: {@code platform threads}, {@code virtual threads} or
     * {@code not started yet}, with the property as it is now.
     */
    public static String inEffect() {
        return kind() + " (" + PROPERTY + "=" + System.getProperty(PROPERTY, "unset") + ")";
    }

    /**
     * Told by the JDK's thread names (Read-Poller for platform pollers, MasterPoller beside virtual sub-pollers): the
     * mode is not exposed otherwise. Only a few platform threads run in this model, so listing them is cheap.
     */
    private static String kind() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("Read-Poller")) {
                return PLATFORM;
            }
            if (t.getName().equals("MasterPoller")) {
                return VIRTUAL;
            }
        }
        return "not started yet";
    }
}
