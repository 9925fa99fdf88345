package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.EnvironmentInfo;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The lines above the table: machine, file system, cache state, rounds, buffer and how the C twins were built, so a
 * pasted table carries the conditions it was measured in.
 */
record RunHeader(TwinOptions options, Path file, long startResidentPermille, long minResidentPermille, int rewarms,
                 String loadBefore, String loadAfter) {

    void print(PrintStream out) {
        Map<String, Object> env = EnvironmentInfo.describe(options.dataDir());
        out.println();
        out.println("Java sender vs C twin, file -> loopback TCP -> one drain (TwinDrain: BodyReceiver, 1 MiB aligned direct buffer, length check only)");
        out.printf(Locale.ROOT, "  jdk: %s (%s)   kernel: %s   cpus: %s (%s)%n", env.get("jdk"), env.get("jvm"),
                env.get("kernel"), env.get("cpus"), env.get("cpuModel"));
        out.printf(Locale.ROOT, "  file: %s (%s), %s on %s %s%n", file.getFileName(), Sizes.format(options.size()),
                env.get("fileSystem"), env.get("fileSystemDevice"), options.dataDir());
        out.printf(Locale.ROOT, "  cache: warm (resident %.1f%% at start, min %.1f%% before a measured send, %d re-warm(s));"
                + " O_DIRECT methods read the device regardless%n", startResidentPermille / 10.0, minResidentPermille / 10.0, rewarms);
        String order = options.versus() == null ? "Java, C, Java, C..." : "Java, C, C " + options.versus() + ", Java...";
        out.printf(Locale.ROOT, "  rounds: %d interleaved (%s); warm-up: %d unmeasured send(s) per side per method,"
                + " all Java sends of a method in one JVM%n", options.rounds(), order, options.warmup());
        out.printf(Locale.ROOT, "  buffer: %s (stream, channel-*, direct-io*, io-uring-*, readwrite/preadwrite/odirect/uring-*);"
                        + " io_uring depth: %d; C: %s%n", Sizes.format(options.buffer()), options.uringDepth(),
                options.twinBuild().isEmpty() ? options.twin() : options.twinBuild());
        out.printf(Locale.ROOT, "  MiB/s = bytes / drain time (accept -> last byte); loadavg before %s, after %s%n", loadBefore, loadAfter);
        out.println();
    }
}
