package io.xferbench.disk.pollution;

import io.xferbench.core.Sizes;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The command line of scripts/bench-pollution; every invalid value is an IllegalArgumentException (exit 2). */
final class PollutionOptions {
    static final String USAGE = "usage: scripts/bench-pollution [--format table|json|csv|markdown] [--out F] [--dir D] "
            + "[--big-size 1GiB] [--cgroup-limit 256MiB] [--hot-files 200] [--hot-file-size 64KiB] [--connections 4] "
            + "[--modes " + String.join(",", BigReadMode.ids()) + "] [--block-size 1MiB] [--before 5s] "
            + "[--recover-cap 30s] [--tolerance 0.10]";

    private static final List<String> OPTIONS = List.of("--format", "--out", "--dir", "--big-size", "--cgroup-limit",
            "--hot-files", "--hot-file-size", "--connections", "--block-size", "--before", "--recover-cap",
            "--tolerance", "--modes");

    String format = "table";
    Path out;
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    long bigSize = Sizes.GiB;
    long cgroupLimit = 256 * Sizes.MiB;
    int hotFiles = 200;
    long hotFileSize = 64 * Sizes.KiB;
    int connections = 4;
    List<BigReadMode> modes = List.of(BigReadMode.values());
    int blockSize = (int) Sizes.MiB;
    Duration before = Duration.ofSeconds(5);
    Duration recoverCap = Duration.ofSeconds(30);
    /** Recovered: residency and req/s at least (1 - tolerance) of their before values. */
    double tolerance = 0.10;
    /** Set by --help: print USAGE, exit 0. */
    boolean help;

    static PollutionOptions parse(String[] args) {
        PollutionOptions o = new PollutionOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                o.help = true;
                return o;
            }
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + a);
            }
            if (!OPTIONS.contains(a)) {
                throw new IllegalArgumentException("unknown option " + a);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args[++i];
            try {
                switch (a) {
                    case "--format" -> {
                        if (!List.of("table", "json", "csv", "markdown").contains(v)) {
                            throw new IllegalArgumentException("--format must be table, json, csv or markdown");
                        }
                        o.format = v;
                    }
                    case "--out" -> o.out = Path.of(v);
                    case "--dir" -> o.dir = Path.of(v);
                    case "--big-size" -> o.bigSize = positive(Sizes.parse(v), a);
                    case "--cgroup-limit" -> o.cgroupLimit = positive(Sizes.parse(v), a);
                    case "--hot-files" -> o.hotFiles = (int) positive(Integer.parseInt(v), a);
                    case "--hot-file-size" -> o.hotFileSize = positive(Sizes.parse(v), a);
                    case "--connections" -> o.connections = (int) positive(Integer.parseInt(v), a);
                    case "--block-size" -> o.blockSize = (int) positive(Sizes.parse(v), a);
                    case "--before" -> o.before = seconds(v, a);
                    case "--recover-cap" -> o.recoverCap = seconds(v, a);
                    case "--tolerance" -> {
                        o.tolerance = Double.parseDouble(v);
                        if (!(o.tolerance > 0 && o.tolerance < 1)) {
                            throw new IllegalArgumentException("--tolerance must be between 0 and 1, e.g. 0.10");
                        }
                    }
                    case "--modes" -> {
                        List<BigReadMode> modes = new ArrayList<>();
                        for (String id : v.split(",")) {
                            modes.add(BigReadMode.byId(id).orElseThrow(() -> new IllegalArgumentException(
                                    "unknown mode " + id + "; known: " + String.join(",", BigReadMode.ids()))));
                        }
                        o.modes = modes;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(a + ": not a number: " + v);
            }
        }
        if (o.bigSize % o.blockSize != 0) {
            throw new IllegalArgumentException("--big-size must be a multiple of --block-size " + o.blockSize);
        }
        if (o.blockSize % 4096 != 0) {
            throw new IllegalArgumentException("--block-size must be a multiple of 4KiB (O_DIRECT alignment)");
        }
        return o;
    }

    private static long positive(long v, String option) {
        if (v <= 0) {
            throw new IllegalArgumentException(option + " must be positive");
        }
        return v;
    }

    /** "5s", "500ms" or a bare number of seconds. */
    private static Duration seconds(String v, String option) {
        Duration d = v.endsWith("ms") ? Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)))
                : Duration.ofMillis(Math.round(Double.parseDouble(v.endsWith("s") ? v.substring(0, v.length() - 1) : v)
                * 1000));
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(option + " must be positive");
        }
        return d;
    }
}
