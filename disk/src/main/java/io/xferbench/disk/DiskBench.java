package io.xferbench.disk;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.read.ReadEngines;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * scripts/bench-disk: generates a file of ContentGenerator bytes, then per pattern × block size × depth runs
 * every Java engine cold, each followed by its fio twin, then fio-only libaio/io_uring rows, then (where a
 * memory cgroup can be made) random reads over a span that fits in the limit and one that does not, buffered
 * vs O_DIRECT, Java in a child JVM inside the cgroup and fio likewise.
 */
public final class DiskBench {
    public static final long SEED = 0x5EEDF11EL;
    private static final String USAGE = "usage: scripts/bench-disk [--size 4GiB] [--format table|json|csv|markdown] "
            + "[--out F] [--dir D] [--block-sizes 4KiB,1MiB] [--depths 1,8,32] [--random-ops N] [--engines a,b] "
            + "[--cache cold|warm|cold,warm] [--no-fio] [--cgroup-limit SIZE|none]";

    private DiskBench() {
    }

    public static void main(String[] args) {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench-disk: " + e.getMessage() + " (" + USAGE + ")");
            System.exit(2);
            return;
        }
        try {
            if (o.childRow != null) {
                System.out.println(new ObjectMapper().writeValueAsString(childRow(o)));
                return;
            }
            List<DiskRow> rows = run(o, System.err);
            String text = DiskTable.format(rows, o.format);
            if (o.out != null) {
                Files.writeString(o.out, text);
            } else {
                System.out.print(text);
            }
            boolean ok = rows.stream().allMatch(r -> r.verified() == null || r.verified());
            System.exit(ok ? 0 : 1);
        } catch (IOException | RuntimeException e) {
            System.err.println("bench-disk: " + e.getMessage());
            System.exit(1);
        }
    }

    static List<DiskRow> run(Options o, PrintStream log) throws IOException {
        Path dir = Files.createTempDirectory(o.dir, "xferbench-disk-");
        Path file = dir.resolve("data");
        // Ctrl-C / SIGTERM skip the finally below; a stale cgroup is cleaned by the next run instead.
        Thread cleanup = new Thread(() -> {
            try {
                Files.deleteIfExists(file);
                Files.deleteIfExists(dir);
            } catch (IOException ignored) {
                // best effort at shutdown
            }
        });
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            generate(file, o.size);
            BlockDevice device = BlockDevice.of(file);
            log.printf("bench-disk: %s on %s (%s), scheduler %s%n", Sizes.format(o.size), device.name(),
                    device.majorMinor(), device.scheduler());
            RowMeasurer m = new RowMeasurer(device, new ContentGenerator(SEED));
            String fio = o.fio ? Fio.path() : null;
            String fioSkip = o.fio ? (fio == null ? Fio.missingReason() : null) : "--no-fio";
            List<DiskRow> rows = new ArrayList<>();
            for (ReadPattern pattern : ReadPattern.values()) {
                for (int bs : o.blockSizes) {
                    for (int depth : o.depths) {
                        ReadSpec spec = new ReadSpec(file, o.size / bs * bs, pattern, bs, depth, o.randomOps, 42);
                        for (String cache : o.caches) {
                            for (ReadEngine engine : engines(o)) {
                                rows.addAll(engineAndTwin(m, engine, spec, cache, fio, fioSkip, log));
                            }
                        }
                    }
                }
            }
            rows.addAll(BeyondRam.rows(o, file, m, fio, fioSkip, log));
            return rows;
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /** The Java row of {@code engine}, then its fio twin's (if it has one), in one cache state; ratio on the Java row. */
    private static List<DiskRow> engineAndTwin(RowMeasurer m, ReadEngine engine, ReadSpec spec, String cache, String fio,
                                               String fioSkip, PrintStream log) throws IOException {
        DiskRow java = m.java(engine, spec, cache);
        log.println("bench-disk: " + DiskTable.format(List.of(java), "csv").lines().skip(1).findFirst().orElse(""));
        String twin = engine.fioEngine();
        if (twin == null) {
            return List.of(java);
        }
        DiskRow f = fioSkip != null || java.skipped() != null
                ? DiskRow.skipped("fio", twin, java.pattern(), spec.blockSize(), spec.concurrency(), engine.direct(), cache,
                        spec.span(), 0, fioSkip != null ? fioSkip : "java twin skipped")
                : m.fio(fio, job(twin, spec, engine.direct()), cache, UnaryOperator.identity());
        return List.of(f.skipped() == null && java.skipped() == null && f.mibPerSec() > 0
                ? java.withRatio(java.mibPerSec() / f.mibPerSec()) : java, f);
    }

    static FioJob job(String ioengine, ReadSpec spec, boolean direct) {
        boolean threads = ioengine.equals("psync") || ioengine.equals("mmap");
        return new FioJob(ioengine, spec.file(), spec.pattern(), spec.blockSize(), threads ? spec.concurrency() : 1,
                threads ? 1 : spec.concurrency(), direct, spec.span(), spec.plan().ops());
    }

    private static List<ReadEngine> engines(Options o) {
        if (o.engines == null) {
            return ReadEngines.all();
        }
        List<ReadEngine> list = new ArrayList<>();
        for (String name : o.engines) {
            list.add(ReadEngines.named(name).orElseThrow(() -> new IllegalArgumentException("unknown engine " + name)));
        }
        return list;
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
        return new RowMeasurer(BlockDevice.of(file), new ContentGenerator(SEED)).java(engine, spec, a[7]);
    }

    static final class Options {
        long size = 4 * Sizes.GiB;
        String format = "table";
        Path out;
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        int[] blockSizes = {4096, 1 << 20};
        int[] depths = {1, 8, 32};
        List<String> caches = List.of("cold");
        long randomOps = 20_000;
        List<String> engines;
        boolean fio = true;
        Long cgroupLimit; // null = size / 4; 0 = no cgroup section
        String childRow;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--help") || a.equals("-h")) {
                    System.out.println(USAGE);
                    System.exit(0);
                }
                if (a.equals("--no-fio")) {
                    o.fio = false;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value" : "unexpected " + a);
                }
                String v = args[++i];
                switch (a) {
                    case "--size" -> o.size = positive(Sizes.parse(v), a);
                    case "--format" -> {
                        if (!List.of("table", "json", "csv", "markdown").contains(v)) {
                            throw new IllegalArgumentException("--format must be table, json, csv or markdown");
                        }
                        o.format = v;
                    }
                    case "--out" -> o.out = Path.of(v);
                    case "--dir" -> o.dir = Path.of(v);
                    case "--block-sizes" -> o.blockSizes = java.util.Arrays.stream(v.split(","))
                            .mapToInt(s -> (int) positive(Sizes.parse(s), a)).toArray();
                    case "--depths" -> o.depths = java.util.Arrays.stream(v.split(","))
                            .mapToInt(s -> (int) positive(Long.parseLong(s), a)).toArray();
                    case "--cache" -> {
                        o.caches = List.of(v.split(","));
                        if (o.caches.isEmpty() || !List.of("cold", "warm").containsAll(o.caches)) {
                            throw new IllegalArgumentException("--cache takes cold, warm or cold,warm, not " + v);
                        }
                    }
                    case "--random-ops" -> o.randomOps = positive(Long.parseLong(v), a);
                    case "--engines" -> {
                        o.engines = List.of(v.split(","));
                        for (String name : o.engines) {
                            if (ReadEngines.named(name).isEmpty()) {
                                throw new IllegalArgumentException("unknown engine " + name + "; known: "
                                        + ReadEngines.all().stream().map(ReadEngine::name).toList());
                            }
                        }
                    }
                    case "--cgroup-limit" -> o.cgroupLimit = v.equals("none") ? 0L : positive(Sizes.parse(v), a);
                    case "--child-row" -> o.childRow = v;
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            for (int bs : o.blockSizes) {
                if (o.size < bs) {
                    throw new IllegalArgumentException("--size must be at least the largest block size");
                }
            }
            return o;
        }

        private static long positive(long v, String option) {
            if (v <= 0) {
                throw new IllegalArgumentException(option + " must be positive");
            }
            return v;
        }
    }
}
