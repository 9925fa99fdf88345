package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.MachineDescription;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The lines above the table: machine, file system, cache state, rounds, buffer and how the C twins were built, so a
 * pasted table carries the conditions it was measured in.
 */
record RunHeader(TwinOptions options, Path file, long startResidentPermille, long minResidentPermille, int rewarms,
                 String loadBefore, String loadAfter) {

    void print(PrintStream out) {
        MachineDescription env = EnvironmentInfo.describe(options.dataDir());
        out.println();
        boolean upload = options.direction() == Direction.UPLOAD;
        out.println(upload
                ? "UPLOAD: Java receiver vs C twin, one C sendfile feeder (xfer_twin sendfile) -> loopback TCP -> receiver -> new target"
                        + " file beside the source (created before accept, removed and syncfs'd after every receive; no fsync, no re-read)"
                : "DOWNLOAD: Java sender vs C twin, file -> loopback TCP -> one drain (TwinDrain: BodyReceiver, 1 MiB aligned direct buffer,"
                        + " length check only)");
        out.printf(Locale.ROOT, "  jdk: %s (%s)   kernel: %s   cpus: %s (%s)%n", env.jdk(), env.jvm(),
                env.kernel(), env.cpus(), env.cpuModel());
        out.printf(Locale.ROOT, "  file: %s (%s), %s on %s %s%n", file.getFileName(), Sizes.format(options.size()),
                env.fileSystem(), env.fileSystemDevice(), options.dataDir());
        out.printf(Locale.ROOT, "  cache: %s warm (resident %.1f%% at start, min %.1f%% before a measured transfer, %d re-warm(s)); %s%n",
                upload ? "source" : "file", startResidentPermille / 10.0, minResidentPermille / 10.0, rewarms,
                upload ? "the target is written to the page cache (the receivers neither fsync nor read back)"
                        : "O_DIRECT methods read the device regardless");
        String order = options.versus() == null ? "Java, C, Java, C..." : "Java, C, C " + options.versus() + ", Java...";
        out.printf(Locale.ROOT, "  rounds: %d interleaved (%s); warm-up: %d unmeasured transfer(s) per side per method,"
                + " all Java %s of a method in one JVM%n", options.rounds(), order, options.warmup(), upload ? "receives" : "sends");
        out.printf(Locale.ROOT, "  buffer: %s (%s); io_uring depth: %d; C: %s%n", Sizes.format(options.buffer()),
                upload ? "each of the receivers' depth buffers: the most one RECV or WRITE moves; the feeder's sendfile ignores it"
                        : "stream, channel-*, direct-io*, io-uring-*, readwrite/preadwrite/odirect/uring-*", options.uringDepth(),
                options.twinBuild().isEmpty() ? options.twin() : options.twinBuild());
        out.printf(Locale.ROOT, upload
                ? "  MiB/s = bytes / receiver's own time (accept -> last write completed; CRC32C and target size checked);"
                        + " loadavg before %s, after %s%n"
                : "  MiB/s = bytes / drain time (accept -> last byte); loadavg before %s, after %s%n", loadBefore, loadAfter);
        out.println();
    }
}
