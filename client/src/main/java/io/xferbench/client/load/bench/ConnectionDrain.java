package io.xferbench.client.load.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Waits, between two runs against the same server, until the server's side of the last run's connections is gone:
 * closing 500 connections is a burst of FINs, CLOSE_WAITs and closes on the server that would otherwise land in the
 * next run's window (and a thread-per-connection server still holds the old threads, counted against its connection
 * limit). Counted from the kernel's socket table by the server's port, so it works for any server; TIME_WAIT is the
 * client's side on loopback and holds nothing of the server's, so it is not waited for.
 */
final class ConnectionDrain {
    /** Socket states (as /proc/net/tcp writes them) that still hold a server connection: all but LISTEN and TIME_WAIT. */
    static final Set<String> HELD = Set.of("01", "02", "03", "04", "05", "07", "08", "09", "0B");
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));
    private static final long POLL_MILLIS = 20;

    /** Counts the connections a server holds on its port. */
    @FunctionalInterface
    interface ConnectionSource {
        int held(int port) throws IOException;
    }

    /** The wait's clock and sleep, so a test can run it without waiting. */
    interface Clock {
        Clock SYSTEM = new Clock() {
        };

        default long millis() {
            return System.nanoTime() / 1_000_000;
        }

        default void sleep(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    }

    /**
     * How a wait ended.
     *
     * @param waitedMillis how long it waited
     * @param held         connections still held when it returned: 0 when drained, more when the bound ran out
     */
    record Result(long waitedMillis, int held) {
        boolean drained() {
            return held == 0;
        }
    }

    private final ConnectionSource source;
    private final Clock clock;
    private final long boundMillis;

    ConnectionDrain(ConnectionSource source, Clock clock, long boundMillis) {
        this.source = source;
        this.clock = clock;
        this.boundMillis = boundMillis;
    }

    /** The kernel's socket tables of this network namespace (the servers the bench starts share it). */
    static ConnectionDrain kernel(long boundMillis) {
        return new ConnectionDrain(ConnectionDrain::fromProc, Clock.SYSTEM, boundMillis);
    }

    /** Returns once no connection is held on {@code port}, or when the bound has passed. */
    Result await(int port) throws IOException, InterruptedException {
        long start = clock.millis();
        int held;
        while ((held = source.held(port)) > 0) {
            long waited = clock.millis() - start;
            if (waited >= boundMillis) {
                return new Result(waited, held);
            }
            clock.sleep(Math.min(POLL_MILLIS, boundMillis - waited));
        }
        return new Result(clock.millis() - start, 0);
    }

    /** Waits and says on stderr when the bound ran out (the next run then starts with connections still closing). */
    void awaitAndWarn(int port) throws IOException, InterruptedException {
        Result r = await(port);
        if (!r.drained()) {
            System.err.printf(Locale.ROOT, "xferbench: warning: %d connections to port %d still open after %d ms; "
                    + "the next run starts anyway%n", r.held(), port, r.waitedMillis());
        }
    }

    private static int fromProc(int port) throws IOException {
        int held = 0;
        for (Path table : TABLES) {
            try {
                held += count(Files.readAllLines(table), port);
            } catch (NoSuchFileException noIpv6) {
                // A kernel without IPv6 has no tcp6 table.
            }
        }
        return held;
    }

    /** Counts the lines of a /proc/net/tcp table whose local port is {@code port} in a {@link #HELD} state. */
    static int count(List<String> lines, int port) {
        int held = 0;
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            // sl local_address rem_address st ...; the header line's second field has no colon.
            if (f.length < 4) {
                continue;
            }
            int colon = f[1].lastIndexOf(':');
            if (colon < 0) {
                continue;
            }
            try {
                if (Integer.parseInt(f[1].substring(colon + 1), 16) == port && HELD.contains(f[3].toUpperCase(Locale.ROOT))) {
                    held++;
                }
            } catch (NumberFormatException header) {
                // Not a socket line.
            }
        }
        return held;
    }
}
