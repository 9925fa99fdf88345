package io.xferbench.client.command;

import io.xferbench.client.report.ClientId;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Several client processes (on one machine or several) driving one server together: each runs with
 * {@code --client-id I/N} and the same {@code --start-at}, and {@code client merge} sums their reports (docs/two-hosts.md).
 */
final class CooperationOptions {
    @Option(names = "--client-id", paramLabel = "I/N", converter = ClientId.Converter.class,
            description = "This is client I of N cooperating ones; 'client merge' adds their reports up.")
    ClientId clientId;

    @Option(names = "--start-at", paramLabel = "TIME", converter = StartTime.class,
            description = "Wait until this wall-clock time before the first row (epoch seconds, e.g. $(date -d +20sec +%%s), or "
                    + "ISO-8601 like 2026-05-01T12:00:00Z), so cooperating clients start together (clocks synced by NTP).")
    Instant startAt;

    /** Sleeps until --start-at, saying so on stderr; returns at once without it or when it has passed. */
    void awaitStart() throws InterruptedException {
        if (startAt == null) {
            return;
        }
        Duration wait = Duration.between(Instant.now(), startAt);
        if (wait.isNegative()) {
            System.err.println("xferbench: --start-at " + startAt + " passed " + wait.negated().toMillis() + " ms ago; starting now");
            return;
        }
        System.err.println("xferbench: waiting " + wait.toMillis() + " ms for --start-at " + startAt);
        Thread.sleep(wait);
    }

    /** {@code --client-id} as the report's environment records it; null when not given. */
    String reportedClientId() {
        return clientId == null ? null : clientId.toString();
    }

    /** {@code --start-at} as the report's environment records it; null when not given. */
    String reportedStartAt() {
        return startAt == null ? null : startAt.toString();
    }

    /** Epoch seconds (decimals allowed) or an ISO-8601 instant, at most {@link #LONGEST_WAIT} ahead. */
    static final class StartTime implements ITypeConverter<Instant> {
        /** Cooperating clients are started within minutes of each other: a later time is a typo, not a plan. */
        static final Duration LONGEST_WAIT = Duration.ofDays(1);

        @Override
        public Instant convert(String value) {
            Instant start;
            try {
                start = value.matches("\\d+(\\.\\d+)?") ? Instant.ofEpochMilli(Math.round(Double.parseDouble(value) * 1000))
                        : Instant.parse(value);
            } catch (DateTimeParseException e) {
                throw new TypeConversionException("want epoch seconds or an ISO-8601 instant (2026-05-01T12:00:00Z), not '" + value + "'");
            }
            if (start.isAfter(Instant.now().plus(LONGEST_WAIT))) {
                throw new TypeConversionException("'" + value + "' is " + start + ", more than a day ahead: want a time "
                        + "shortly after all clients are started");
            }
            return start;
        }
    }
}
