package io.xferbench.twin;

import io.xferbench.core.cli.Converters;
import io.xferbench.core.method.Direction;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.uring.UringDepth;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import java.util.List;
import java.util.Locale;

/**
 * The command line of {@link TwinBench}.
 *
 * @param direction  download (Java senders against C senders, into one drain) or upload (Java receivers against C
 *                   receivers, fed by one C sendfile sender)
 * @param twin       the xfer_twin binary (the upload pairs' feeder too)
 * @param uringTwin  the xfer_uring_twin binary, or null when liburing was missing (the io_uring rows are then skipped)
 * @param uringDepth buffers in flight of the io_uring engine, Java and C alike
 * @param buffer     the methods' buffer size, Java and C alike
 * @param twinBuild  how the C twins were built, for the table's header (empty: the binary's path is shown)
 * @param versus     a plain C twin mode sent a third time in every round as the reference (e.g. sendfile), or null
 */
record TwinOptions(Direction direction, String twin, String uringTwin, int uringDepth, long size, int rounds, int warmup, int buffer, Path dataDir,
                   List<String> methods, String twinBuild, String versus) {

    static final String USAGE = "usage: TwinBench --twin PATH [--uring-twin PATH] [--direction download|upload] [--size 4GiB]"
            + " [--rounds 3] [--warmup 1] [--buffer 64KiB] [--io-uring-depth 8] [--data-dir DIR] [--methods id,id,...]"
            + " [--twin-build TEXT] [--versus sendfile]";

    /** The command line as picocli reads it; {@link #parse} checks what one option cannot check alone. */
    @Command(name = "twin")
    static final class Line {
        @Option(names = "--direction", defaultValue = "download", converter = DirectionConverter.class)
        Direction direction;
        @Option(names = "--twin", required = true)
        String twin;
        @Option(names = "--uring-twin")
        String uringTwin;
        @Option(names = "--io-uring-depth", converter = Converters.PositiveInt.class)
        int uringDepth = UringDepth.DEFAULT;
        @Option(names = "--size", defaultValue = "4GiB", converter = Converters.Size.class)
        long size;
        @Option(names = "--rounds", defaultValue = "3", converter = Converters.PositiveInt.class)
        int rounds;
        @Option(names = "--warmup", defaultValue = "1", converter = Converters.NonNegativeInt.class)
        int warmup;
        @Option(names = "--buffer", converter = Converters.BufferSize.class)
        int buffer = TransferOptions.DEFAULT_BUFFER_SIZE;
        @Option(names = "--data-dir")
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), "xferbench-twin-data");
        @Option(names = "--methods", split = ",")
        List<String> methods; // null: every method of the direction that has a twin
        @Option(names = "--twin-build", defaultValue = "")
        String twinBuild;
        @Option(names = "--versus")
        String versus;
    }

    /** {@code download} or {@code upload}. */
    static final class DirectionConverter implements CommandLine.ITypeConverter<Direction> {
        @Override
        public Direction convert(String value) {
            return switch (value) {
                case "download" -> Direction.DOWNLOAD;
                case "upload" -> Direction.UPLOAD;
                default -> throw new CommandLine.TypeConversionException("download or upload, not " + value);
            };
        }
    }

    /** @throws IllegalArgumentException with a one-line reason when the arguments are not usable */
    static TwinOptions parse(String[] args) {
        Line l = new Line();
        try {
            new CommandLine(l).setOverwrittenOptionsAllowed(true).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage().lines().findFirst().orElse("bad command line"));
        }
        if (l.uringDepth > 4096) {
            throw new IllegalArgumentException("--io-uring-depth is at most 4096, not " + l.uringDepth);
        }
        List<String> methods = l.methods == null ? List.copyOf(TwinModes.of(l.direction).keySet()) : l.methods;
        for (String m : methods) {
            if (!TwinModes.of(l.direction).containsKey(m)) {
                throw new IllegalArgumentException("no C twin for " + l.direction.name().toLowerCase(Locale.ROOT) + " method " + m
                        + "; known: " + TwinModes.of(l.direction).keySet());
            }
        }
        if (l.versus != null && (TwinModes.isUring(l.versus) || !TwinModes.BY_METHOD.containsValue(l.versus))) {
            throw new IllegalArgumentException("--versus takes a plain C twin mode, one of " + plainModes() + "; not " + l.versus);
        }
        if (l.versus != null && l.direction == Direction.UPLOAD) {
            throw new IllegalArgumentException("--versus compares download senders; the upload table has one feeder");
        }
        return new TwinOptions(l.direction, l.twin, l.uringTwin, l.uringDepth, l.size, l.rounds, l.warmup, l.buffer, l.dataDir,
                List.copyOf(methods), l.twinBuild, l.versus);
    }

    private static List<String> plainModes() {
        return TwinModes.BY_METHOD.values().stream().filter(m -> !TwinModes.isUring(m)).distinct().toList();
    }
}
