package io.xferbench.disk;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.read.ReadEngines;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;
import io.xferbench.core.read.RingFlags;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * scripts/bench-disk: generates a file of ContentGenerator bytes, then per pattern × block size × depth runs
 * every Java engine cold, each followed by its fio twin, then fio-only libaio/io_uring rows, then (where a
 * memory cgroup can be made) random reads over a span that fits in the limit and one that does not, buffered
 * vs O_DIRECT, Java in a child JVM inside the cgroup and fio likewise.
 */
public final class DiskBench {
    public static final long SEED = 0x5EEDF11EL;

    private DiskBench() {
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new Options(), args));
    }

    /** Runs the table (or, with --child-row, one row for the parent) and returns the exit status. */
    static int execute(Options o) throws IOException {
        if (o.childRow != null) {
            System.out.println(new ObjectMapper().writeValueAsString(childRow(o)));
            return 0;
        }
        List<DiskRow> rows = DiskRows.run(o, System.err);
        String text = DiskTable.format(DiskEnvironment.describe(o, o.fio() ? Fio.path() : null), DiskSettings.of(o), rows,
                o.format);
        if (o.out != null) {
            Files.writeString(o.out, text);
        } else {
            System.out.print(text);
        }
        return rows.stream().allMatch(r -> r.verified() == null || r.verified()) ? 0 : Cli.FAILED;
    }

    /** The file's bytes are ContentGenerator(SEED)'s, so any block's expected content can be recomputed. */
    public static void generate(Path file, long size) throws IOException {
        ContentGenerator g = new ContentGenerator(SEED);
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long at = 0; at < size; ) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), size - at));
                g.fill(chunk, at);
                chunk.flip();
                while (chunk.hasRemaining()) {
                    at += out.write(chunk, at);
                }
            }
            out.force(false);
        }
    }

    /** Child mode for rows inside a cgroup: one Java row, printed as JSON on stdout. */
    private static DiskRow childRow(Options o) throws IOException {
        String[] a = o.childRow.split(",");
        ReadEngine engine = ReadEngines.named(a[0]).orElseThrow(() -> new IllegalArgumentException("engine " + a[0]));
        Path file = Path.of(a[6]);
        ReadSpec spec = new ReadSpec(file, Long.parseLong(a[4]), ReadPattern.valueOf(a[1]), Integer.parseInt(a[2]),
                Integer.parseInt(a[3]), Long.parseLong(a[5]), 42);
        return new RowMeasurer(BlockDevice.of(file), new ContentGenerator(SEED), Duration.ofMillis(Long.parseLong(a[8])),
                Duration.ofMillis(Long.parseLong(a[9]))).java(engine, spec, a[7]);
    }

    /** The command line of scripts/bench-disk; a bad value is a usage error (one line, exit 2) before any work. */
    @Command(name = "bench-disk", mixinStandardHelpOptions = true, version = "bench-disk 0.1.0", sortOptions = false,
            description = "Every Java file-read engine cold, each next to its fio twin, and random reads beyond RAM "
                    + "inside a memory cgroup. See docs/disk.md.")
    public static final class Options implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--size", defaultValue = "4GiB", converter = Converters.Size.class,
                description = "Size of the generated file (default: ${DEFAULT-VALUE}).")
        long size;

        @Option(names = "--format", defaultValue = "table", description = "table, json, csv or markdown "
                + "(default: ${DEFAULT-VALUE}).")
        String format;

        @Option(names = "--out", converter = Converters.OutputFile.class, description = "Write the table to this file instead of stdout.")
        Path out;

        @Option(names = "--dir", description = "Directory of the data file, on a block device (default: java.io.tmpdir).")
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));

        @Option(names = "--block-sizes", split = ",", defaultValue = "4KiB,1MiB", converter = Converters.Size.class,
                description = "Block sizes (default: ${DEFAULT-VALUE}).")
        List<Long> blockSizes;

        @Option(names = "--depths", split = ",", defaultValue = "1,8,32", converter = Converters.PositiveInt.class,
                description = "Threads or requests in flight; the beyond-RAM section runs at the deepest "
                        + "(default: ${DEFAULT-VALUE}).")
        List<Integer> depths;

        @Option(names = "--random-ops", defaultValue = "20000", converter = Converters.NonNegativeLong.class,
                description = "Reads per random row (default: ${DEFAULT-VALUE}).")
        long randomOps;

        @Option(names = "--row-bytes", defaultValue = "1GiB", converter = Converters.Size.class,
                description = "Most bytes one row reads: a sequential row reads the first this much of the file, a "
                        + "random row at most this much in --random-ops blocks (default: ${DEFAULT-VALUE}).")
        long rowBytes;

        @Option(names = "--engines", split = ",", description = "Java engines to run (default: all of them).")
        List<String> engines;

        @Option(names = "--patterns", split = ",", defaultValue = "sequential,random", converter = PatternName.class,
                description = "Access patterns of the rows: sequential, random or both (default: ${DEFAULT-VALUE}).")
        List<ReadPattern> patterns;

        @Option(names = "--cache", split = ",", defaultValue = "cold", description = "cold, warm or cold,warm "
                + "(default: ${DEFAULT-VALUE}).")
        List<String> caches;

        @Option(names = "--repeat", defaultValue = "1", converter = Converters.PositiveInt.class,
                description = "Run each Java row and its fio twin this many times, alternately; the table shows the "
                        + "pair with the median java/fio ratio and the ratios' range (default: ${DEFAULT-VALUE}).")
        int repeat;

        @Option(names = "--settle", converter = Converters.Time.class, description = "How long a cold row waits "
                + "after evicting the file, before the tool starts (default: 3s where the VM reports free memory to its "
                + "host, virtio-balloon free page reporting, else 0; docs/disk.md).")
        Duration settle; // null = the default

        @Option(names = "--jit-settle", defaultValue = "10s", converter = Converters.Time.class,
                description = "At most this long per Java row, its engine runs untimed in the row's shape until the "
                        + "JVM's JIT compilers are quiet; 0 runs it once, and the row says it was not settled "
                        + "(default: ${DEFAULT-VALUE}; docs/disk.md).")
        Duration jitSettle;

        @Option(names = "--ring-flags", defaultValue = "default", converter = RingFlagsName.class,
                description = "Setup flags of the engines on the suite's own ring (uring-raw, uring-fixed, "
                        + "uring-sqpoll, uring-dontcache): default (none) or single-issuer (SINGLE_ISSUER+DEFER_TASKRUN, "
                        + "SINGLE_ISSUER alone with SQPOLL); a kernel that refuses them skips those rows with why "
                        + "(default: ${DEFAULT-VALUE}; docs/disk.md).")
        RingFlags ringFlags;

        @Option(names = "--no-fio", description = "Leave out the fio rows.")
        boolean noFio;

        @Option(names = "--cgroup-limit", converter = LimitOrNone.class, description = "Memory cgroup limit of the "
                + "beyond-RAM section, or none to skip it (default: max(size/4, 256MiB)).")
        Long cgroupLimit; // null = the default; 0 = no cgroup section

        /** Internal: one row in a child JVM inside the cgroup (BeyondRam), printed as JSON. */
        @Option(names = "--child-row", hidden = true)
        String childRow;

        /** Parses and checks {@code args}; a bad command line throws ParameterException. */
        static Options parse(String... args) {
            Options o = new Options();
            Cli.commandLine(o).parseArgs(args);
            o.validate();
            return o;
        }

        boolean fio() {
            return !noFio;
        }

        Duration settle() {
            return settle != null ? settle : FreePageReporting.defaultSettle();
        }

        @Override
        public Integer call() throws IOException {
            validate();
            return execute(this);
        }

        /** What picocli's converters cannot check alone: choices and relations between options. */
        void validate() {
            if (!List.of("table", "json", "csv", "markdown").contains(format)) {
                throw usage("--format must be table, json, csv or markdown, not " + format);
            }
            if (caches.isEmpty() || !List.of("cold", "warm").containsAll(caches)) {
                throw usage("--cache takes cold, warm or cold,warm, not " + String.join(",", caches));
            }
            if (size <= 0 || randomOps <= 0 || rowBytes <= 0) {
                throw usage("--size, --random-ops and --row-bytes must be positive");
            }
            if (!Files.isDirectory(dir)) {
                throw usage("--dir " + dir + " is not a directory");
            }
            for (long bs : blockSizes) {
                if (bs <= 0 || bs > Integer.MAX_VALUE) {
                    throw usage("--block-sizes must be 1 byte to 1GiB, not " + bs);
                }
                if (size < bs) {
                    throw usage("--size must be at least the largest block size");
                }
                if (rowBytes < bs) {
                    throw usage("--row-bytes must be at least the largest block size");
                }
            }
            if (engines != null) {
                for (String name : engines) {
                    if (ReadEngines.named(name).isEmpty()) {
                        throw usage("unknown engine " + name + "; known: "
                                + ReadEngines.all().stream().map(ReadEngine::name).toList());
                    }
                }
            }
        }

        private ParameterException usage(String message) {
            return new ParameterException(spec.commandLine(), message);
        }
    }

    /** default or single-issuer, one line and exit 2 for anything else. */
    static final class RingFlagsName implements CommandLine.ITypeConverter<RingFlags> {
        @Override
        public RingFlags convert(String value) {
            return RingFlags.named(value).orElseThrow(() -> new CommandLine.TypeConversionException(
                    "--ring-flags takes " + RingFlags.choices() + ", not " + value));
        }
    }

    /** sequential or random (the table's spelling), one line and exit 2 for anything else. */
    static final class PatternName implements CommandLine.ITypeConverter<ReadPattern> {
        @Override
        public ReadPattern convert(String value) {
            for (ReadPattern p : ReadPattern.values()) {
                if (p.name().equalsIgnoreCase(value)) {
                    return p;
                }
            }
            throw new CommandLine.TypeConversionException("--patterns takes sequential, random or sequential,random, not " + value);
        }
    }

    /** A memory limit, or {@code none} (0: no cgroup section). */
    static final class LimitOrNone implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            if (value.equals("none")) {
                return 0L;
            }
            long v = new Converters.Size().convert(value);
            if (v <= 0) {
                throw new CommandLine.TypeConversionException("limit must be positive or none, not " + value);
            }
            return v;
        }
    }
}
