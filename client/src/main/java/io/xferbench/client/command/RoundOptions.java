package io.xferbench.client.command;

import io.xferbench.client.report.RunSettings;
import io.xferbench.client.run.Progress;
import io.xferbench.client.run.TransferDriver;
import io.xferbench.core.cli.Converters;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** Rounds, connections and verification: the options download, upload and proxy share. */
final class RoundOptions {
    @Option(names = "--repeat", defaultValue = "5", converter = Converters.PositiveInt.class, description = "Measured rounds per method and size (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--warmup", defaultValue = "1", converter = Converters.NonNegativeInt.class, description = "Unmeasured rounds first (default: ${DEFAULT-VALUE}).")
    int warmup;

    /**
     * Each connection of a round is a thread and its own direct buffers (--buffer, the receiver's): 100,000 of them ran
     * out of direct memory with a stack trace. The documented runs use 1 to 4; thousands of connections are load's job.
     */
    static final int MAX_CONCURRENCY = 1024;

    @Option(names = "--concurrency", defaultValue = "1", converter = Concurrency.class,
            description = "Simultaneous connections per round, 1 to " + MAX_CONCURRENCY + " (default: ${DEFAULT-VALUE}).")
    int concurrency;

    /** What a transfer is checked by. */
    enum Verify { CRC32C, LENGTH }

    @Option(names = "--verify", defaultValue = "crc32c", description = "crc32c (byte count and checksum) or length (byte count only) (default: ${DEFAULT-VALUE}).")
    Verify verify;

    @Option(names = "--no-syscalls", description = "Leave syscall counts out of the results.")
    boolean noSyscalls;

    @Option(names = "--quiet", description = "No progress on stderr (on a terminal: a line redrawn every round with an ETA; "
            + "otherwise one line per method and size).")
    boolean quiet;

    /** Progress of {@code rows} rows on stderr, unless --quiet. */
    Progress progress(int rows) {
        return Progress.onStderr(quiet, rows, rounds());
    }

    /** Checks the values; the driver's rounds. */
    TransferDriver.Rounds rounds() {
        return new TransferDriver.Rounds(repeat, warmup, concurrency, !noSyscalls);
    }

    /** 1 to {@link #MAX_CONCURRENCY}. */
    static final class Concurrency implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = new Converters.PositiveInt().convert(value);
            if (n > MAX_CONCURRENCY) {
                throw new TypeConversionException("at most " + MAX_CONCURRENCY + " connections per round (each is a thread with "
                        + "its own buffers; 'load' drives thousands), not " + value);
            }
            return n;
        }
    }

    boolean verifyCrc32c() {
        return verify == Verify.CRC32C;
    }

    /** The run's settings as printed above the table and stored in the JSON; commands add their own after these. */
    RunSettings.Rounds describe(ServerOptions server, List<Long> sizes) {
        return new RunSettings.Rounds(server.host + ":" + server.port, sizes, repeat, warmup, concurrency,
                verify.name().toLowerCase(java.util.Locale.ROOT));
    }
}
