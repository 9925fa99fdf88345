package io.xferbench.server.fault;

import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.server.request.ClientMessages;
import io.xferbench.server.request.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The log of a request that failed for a reason of the server's own (a RuntimeException, an Error) on any I/O model:
 * one WARNING line naming the model, the client, the request and the exception, with its stack trace, at most once per
 * exception class per {@link #PERIOD} (how many were folded into it said), so a flood does not fill the disk; every one
 * at FINE.
 */
public final class InternalErrors {
    private static final Logger LOG = Logger.getLogger(InternalErrors.class.getName());
    static final Duration PERIOD = Duration.ofSeconds(10);
    /** How the log names a request that failed before it was decoded. */
    public static final String NOT_DECODED = "a request not decoded yet";

    private static final Map<Class<?>, Kind> KINDS = new ConcurrentHashMap<>();

    private InternalErrors() {
    }

    /**
     * @param request the {@link Request} or {@link HttpRequest} being served, or null before one was decoded; named
     *                here, on failure, so that serving one costs no string
     */
    public static void report(String model, String peer, Object request, Throwable e) {
        report(model, peer, request, e, e);
    }

    /**
     * As {@link #report(String, String, Object, Throwable)} for a {@code fault} that came wrapped ({@link ServerFault}):
     * the line names and the folding counts the fault, the stack trace is {@code thrown}'s, whose chain holds it.
     */
    public static void report(String model, String peer, Object request, Throwable fault, Throwable thrown) {
        String line = model + " " + peer + ": internal error serving " + describe(request) + ": " + fault;
        long folded = KINDS.computeIfAbsent(fault.getClass(), c -> new Kind()).admit(System.nanoTime());
        if (folded < 0) {
            LOG.fine(line);
            return;
        }
        LOG.log(Level.WARNING, folded == 0 ? line : line + " (" + folded + " more of this kind since the last report)", thrown);
    }

    /**
     * A request as the log names it: a native one by its operation and name (a generated file by its size, a PROXY
     * frame by its relay), an HTTP one by its method and path.
     */
    static String describe(Object request) {
        return switch (request) {
            case null -> NOT_DECODED;
            case Request r when r.op() == Op.PROXY -> "PROXY " + (r.method().isEmpty() ? "(the default relay)" : r.method());
            case Request r when !r.name().isEmpty() -> r.op() + " " + r.name();
            // An unnamed download is of a generated file; INFO and the measurement frames name nothing.
            case Request r when r.op() == Op.DOWNLOAD || r.op() == Op.PREPARE ->
                    r.op() + " (generated, " + r.size() + " bytes)";
            case Request r -> r.op().toString();
            case HttpRequest r -> r.method() + " " + r.path();
            default -> request.toString();
        };
    }

    /** What the client hears: one line, paths inside the data directory relative to it. */
    public static String clientReason(Throwable e, Path root) {
        return "internal error: " + ClientMessages.relative(e.toString(), root).replaceAll("\\R", " ");
    }

    /** What a client of the proxy hears: one line (the proxy has no data directory to hide). */
    public static String clientReason(Throwable e) {
        return "internal error: " + e.toString().replaceAll("\\R", " ");
    }

    /** One exception class's reports: the first of each period is logged, the rest counted. */
    private static final class Kind {
        private boolean logged;
        private long lastNanos;
        private long suppressed;

        /** @return how many were folded since the last logged one, or -1 if this one is folded */
        synchronized long admit(long now) {
            if (logged && now - lastNanos < PERIOD.toNanos()) {
                suppressed++;
                return -1;
            }
            long folded = suppressed;
            logged = true;
            lastNanos = now;
            suppressed = 0;
            return folded;
        }
    }
}
