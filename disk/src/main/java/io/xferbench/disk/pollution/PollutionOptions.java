package io.xferbench.disk.pollution;

import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** The command line of scripts/bench-pollution; a bad value is a usage error (one line, exit 2) before any work. */
@Command(name = "bench-pollution", mixinStandardHelpOptions = true, version = "bench-pollution 0.1.0",
        sortOptions = false, description = "A server's hot set of small files inside a memory cgroup, re-read at a "
        + "limited rate, while a big file is read buffered, buffered + fadvise(DONTNEED) or O_DIRECT in the same "
        + "cgroup: hot-set residency (mincore), req/s and p99 before, during and after. See docs/disk.md.")
public final class PollutionOptions implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--format", defaultValue = "table", description = "table, json, csv or markdown "
            + "(default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--out", converter = Converters.OutputFile.class, description = "Write the report to this file instead of stdout.")
    Path out;

    @Option(names = "--dir", description = "Directory of the run's files, on a block device (default: java.io.tmpdir).")
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));

    @Option(names = "--big-size", defaultValue = "4GiB", converter = Converters.Size.class,
            description = "The big file, several times the cgroup limit; read again, pass after pass, until the "
                    + "window holds --min-window-requests hot requests (default: ${DEFAULT-VALUE}).")
    long bigSize;

    @Option(names = "--min-window-requests", defaultValue = "500", converter = Converters.PositiveInt.class,
            description = "Hot requests the before and during windows hold at least, so that their p99 has "
                    + "requests above it rather than being the slowest one: before runs on past --before, the big "
                    + "file is read again (default: ${DEFAULT-VALUE}; a p99 of fewer than "
                    + ThinPercentile.MIN_BEYOND + " requests beyond it is marked *).")
    int minWindowRequests;

    @Option(names = "--max-passes", defaultValue = "16", converter = Converters.PositiveInt.class,
            description = "Most reads of the big file in one mode, whatever --min-window-requests asks "
                    + "(default: ${DEFAULT-VALUE}).")
    int maxPasses;

    @Option(names = "--cgroup-limit", defaultValue = "256MiB", converter = Converters.Size.class,
            description = "Memory limit of the cgroup holding the server and the big reader (default: ${DEFAULT-VALUE}).")
    long cgroupLimit;

    @Option(names = "--hot-files", defaultValue = "200", converter = Converters.PositiveInt.class,
            description = "Files in the hot set (default: ${DEFAULT-VALUE}).")
    int hotFiles;

    @Option(names = "--hot-file-size", defaultValue = "512KiB", converter = Converters.Size.class,
            description = "Size of each hot file (default: ${DEFAULT-VALUE}).")
    long hotFileSize;

    @Option(names = "--connections", defaultValue = "4", converter = Converters.PositiveInt.class,
            description = "Client connections downloading the hot set (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--hot-rate", defaultValue = "40", converter = Converters.PositiveInt.class,
            description = "Hot requests per second over all connections (default: ${DEFAULT-VALUE}): a hot file "
                    + "re-read every few seconds, not so often that the LRU's active list shields it.")
    int hotRate;

    @Option(names = "--modes", split = ",", converter = ModeConverter.class,
            description = "Big-read modes (default: all of ${COMPLETION-CANDIDATES}).",
            completionCandidates = ModeIds.class)
    List<BigReadMode> modes = List.of(BigReadMode.values());

    @Option(names = "--block-size", defaultValue = "1MiB", converter = Converters.Size.class,
            description = "Block size of the big read, a multiple of 4KiB (default: ${DEFAULT-VALUE}).")
    long blockSizeBytes;

    @Option(names = "--before", defaultValue = "5s", converter = Converters.Time.class,
            description = "Length of the before (and after) window (default: ${DEFAULT-VALUE}).")
    Duration before;

    @Option(names = "--recover-cap", defaultValue = "30s", converter = Converters.Time.class,
            description = "Longest wait for the hot set to recover (default: ${DEFAULT-VALUE}).")
    Duration recoverCap;

    /** Recovered: residency and req/s at least (1 - tolerance) of their before values. */
    @Option(names = "--tolerance", defaultValue = "0.10", description = "Recovered = within this fraction of "
            + "before, 0 < t < 1 (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--cpus", defaultValue = "split", description = "split: the big reader on a CPU of its own, "
            + "the server and the clients on the others (where this process may use two or more); shared: nothing "
            + "pinned (default: ${DEFAULT-VALUE}).")
    String cpus;

    int blockSize;

    /** Parses and checks {@code args}; a bad command line throws ParameterException. */
    static PollutionOptions parse(String... args) {
        PollutionOptions o = new PollutionOptions();
        Cli.commandLine(o).parseArgs(args);
        o.validate();
        return o;
    }

    @Override
    public Integer call() throws Exception {
        validate();
        return PollutionBench.execute(this);
    }

    /**
     * A usage error when --dir has less free space than the run writes (the big file and the hot set). Called by the
     * run after it has removed what killed runs left there, which may be what fills the disk.
     */
    void checkRoom() {
        long needed = saturatedSum(bigSize, (double) hotFiles * hotFileSize);
        long usable = usableSpace();
        if (usable >= 0 && usable < needed) {
            throw usage("--dir " + dir + " has " + Sizes.human(usable) + " free, the run writes "
                    + Sizes.human(needed) + " (--big-size and the hot set)");
        }
    }

    private static long saturatedSum(long a, double b) {
        double sum = a + b;
        return sum >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) sum;
    }

    /** Free bytes for this user where --dir is, or -1 when the file system does not say. */
    private long usableSpace() {
        try {
            return java.nio.file.Files.getFileStore(dir).getUsableSpace();
        } catch (java.io.IOException e) {
            return -1; // writing will tell, with the file system's own error
        }
    }

    /** What picocli's converters cannot check alone: choices, ranges and relations between options. */
    void validate() {
        if (!List.of("table", "json", "csv", "markdown").contains(format)) {
            throw usage("--format must be table, json, csv or markdown, not " + format);
        }
        if (bigSize <= 0 || cgroupLimit <= 0 || hotFileSize <= 0) {
            throw usage("--big-size, --cgroup-limit and --hot-file-size must be positive");
        }
        if (!java.nio.file.Files.isDirectory(dir)) {
            throw usage("--dir " + dir + " is not a directory");
        }
        if (blockSizeBytes <= 0 || blockSizeBytes % 4096 != 0 || blockSizeBytes > 64 * Sizes.MiB) {
            throw usage("--block-size must be a multiple of 4KiB (O_DIRECT alignment) up to 64MiB");
        }
        blockSize = (int) blockSizeBytes;
        if (bigSize % blockSize != 0) {
            throw usage("--big-size must be a multiple of --block-size " + blockSize);
        }
        if (before.isZero() || recoverCap.isZero()) {
            throw usage("--before and --recover-cap must be positive");
        }
        if (!List.of("split", "shared").contains(cpus)) {
            throw usage("--cpus must be split or shared, not " + cpus);
        }
        if (!(tolerance > 0 && tolerance < 1)) {
            throw usage("--tolerance must be between 0 and 1, e.g. 0.10");
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    static final class ModeConverter implements CommandLine.ITypeConverter<BigReadMode> {
        @Override
        public BigReadMode convert(String value) {
            return BigReadMode.byId(value).orElseThrow(() -> new CommandLine.TypeConversionException("unknown mode "
                    + value + "; known: " + String.join(",", BigReadMode.ids())));
        }
    }

    static final class ModeIds implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return BigReadMode.ids().iterator();
        }
    }
}
