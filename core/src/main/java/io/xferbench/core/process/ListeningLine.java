package io.xferbench.core.process;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A child server's announcement that it is ready: the stdout line {@code NAME listening on HOST:PORT}, anything after
 * a space following (a proxy's {@code -> TARGET}, a server's {@code tls-cert=PATH}). A child that binds port 0 says so, and its parent learns the port
 * here. Lines before it are kept for the error should it never come; a warning that merely mentions "listening on"
 * ({@code NAME: WARNING: listening on ...}) is not the announcement.
 */
public final class ListeningLine {
    private static final Pattern ANNOUNCEMENT = Pattern.compile("^\\S+ listening on (.*)$");
    private static final Pattern HOST_PORT = Pattern.compile("^(\\S+):(\\d{1,5})(?:\\s.*)?$");
    /** A server's certificate for its TLS methods: the rest of the line, so a path may hold spaces. */
    private static final Pattern TLS_CERT = Pattern.compile("\\stls-cert=(.+)$");
    private static final int EARLY_LINES = 40;
    private static final Duration EXIT_WAIT = Duration.ofSeconds(2);

    private ListeningLine() {
    }

    /**
     * Reads {@code child}'s stdout up to its announcement and returns the address announced. Fails, with the lines
     * before it and the child's last stderr lines, if the child exits first, says nothing of the kind within
     * {@code timeout}, or announces something that is not HOST:PORT. The lines after it are the caller's to read,
     * forward or discard.
     */
    public static InetSocketAddress await(ChildProcess child, Duration timeout) throws IOException {
        return announced(child, timeout).address();
    }

    /**
     * What a child announced: its address, and for an xferbench server the certificate its TLS methods serve with
     * ({@code ... listening on HOST:PORT tls-cert=PATH}), which a client of it is to trust.
     */
    public record Announced(InetSocketAddress address, Optional<Path> tlsCertificate) {
    }

    /** {@link #await}, with the rest of the announcement. */
    public static Announced announced(ChildProcess child, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Deque<String> early = new ArrayDeque<>();
        while (true) {
            String line;
            try {
                line = child.readLine(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (TimeoutException e) {
                throw failure(child, "did not say it was listening in " + said(timeout), early);
            }
            if (line == null) {
                throw failure(child, exited(child) + " before listening", early);
            }
            Matcher announcement = ANNOUNCEMENT.matcher(line);
            if (announcement.matches()) {
                Matcher hostPort = HOST_PORT.matcher(announcement.group(1));
                int port = hostPort.matches() ? Integer.parseInt(hostPort.group(2)) : 0;
                if (port < 1 || port > 65535) {
                    throw failure(child, "announced '" + line + "', not HOST:PORT", early);
                }
                Matcher cert = TLS_CERT.matcher(announcement.group(1));
                return new Announced(new InetSocketAddress(hostPort.group(1), port),
                        cert.find() ? Optional.of(Path.of(cert.group(1))) : Optional.empty());
            }
            early.addLast(line);
            if (early.size() > EARLY_LINES) {
                early.removeFirst();
            }
        }
    }

    private static String said(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static String exited(ChildProcess child) {
        try {
            return child.waitFor(EXIT_WAIT) ? "exited " + child.waitFor() : "closed its stdout";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "closed its stdout";
        }
    }

    private static IOException failure(ChildProcess child, String what, Deque<String> early) {
        StringBuilder s = new StringBuilder(child.name()).append(' ').append(what);
        appendLines(s, "its output before", List.copyOf(early));
        try {
            appendLines(s, "its stderr", child.stderrTail());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new IOException(s.toString());
    }

    private static void appendLines(StringBuilder s, String heading, List<String> lines) {
        if (!lines.isEmpty()) {
            s.append("; ").append(heading).append(": ").append(String.join(" | ", lines));
        }
    }
}
