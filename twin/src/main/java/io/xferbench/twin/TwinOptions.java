package io.xferbench.twin;

import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.uring.UringDepth;
import java.nio.file.Path;
import java.util.Arrays;
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

    /** @throws IllegalArgumentException with a one-line reason when the arguments are not usable */
    static TwinOptions parse(String[] args) {
        Direction direction = Direction.DOWNLOAD;
        String twin = null;
        String uringTwin = null;
        int uringDepth = UringDepth.DEFAULT;
        long size = 4 * Sizes.GiB;
        int rounds = 3;
        int warmup = 1;
        int buffer = TransferOptions.DEFAULT_BUFFER_SIZE;
        Path dataDir = Path.of(System.getProperty("java.io.tmpdir"), "xferbench-twin-data");
        List<String> methods = null; // every method of the direction that has a twin
        String twinBuild = "";
        String versus = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(option.startsWith("--") ? option + " needs a value" : "unexpected " + option);
            }
            String value = args[++i];
            switch (option) {
                case "--direction" -> direction = switch (value) {
                    case "download" -> Direction.DOWNLOAD;
                    case "upload" -> Direction.UPLOAD;
                    default -> throw new IllegalArgumentException("--direction is download or upload, not " + value);
                };
                case "--twin" -> twin = value;
                case "--uring-twin" -> uringTwin = value;
                case "--io-uring-depth" -> uringDepth = Integer.parseInt(value);
                case "--size" -> size = Sizes.parse(value);
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--warmup" -> warmup = Integer.parseInt(value);
                case "--buffer" -> buffer = Math.toIntExact(Sizes.parse(value));
                case "--data-dir" -> dataDir = Path.of(value);
                case "--methods" -> methods = Arrays.asList(value.split(","));
                case "--twin-build" -> twinBuild = value;
                case "--versus" -> versus = value;
                default -> throw new IllegalArgumentException("unknown option " + option);
            }
        }
        if (twin == null) {
            throw new IllegalArgumentException("--twin PATH is required");
        }
        if (rounds < 1 || warmup < 0 || uringDepth < 1 || uringDepth > 4096) {
            throw new IllegalArgumentException("need --rounds >= 1, --warmup >= 0, --io-uring-depth in [1, 4096]");
        }
        if (methods == null) {
            methods = List.copyOf(TwinModes.of(direction).keySet());
        }
        for (String m : methods) {
            if (!TwinModes.of(direction).containsKey(m)) {
                throw new IllegalArgumentException("no C twin for " + direction.name().toLowerCase(Locale.ROOT) + " method " + m
                        + "; known: " + TwinModes.of(direction).keySet());
            }
        }
        if (versus != null && (TwinModes.isUring(versus) || !TwinModes.BY_METHOD.containsValue(versus))) {
            throw new IllegalArgumentException("--versus takes a plain C twin mode, one of " + plainModes() + "; not " + versus);
        }
        if (versus != null && direction == Direction.UPLOAD) {
            throw new IllegalArgumentException("--versus compares download senders; the upload table has one feeder");
        }
        return new TwinOptions(direction, twin, uringTwin, uringDepth, size, rounds, warmup, buffer, dataDir, List.copyOf(methods), twinBuild,
                versus);
    }

    private static List<String> plainModes() {
        return TwinModes.BY_METHOD.values().stream().filter(m -> !TwinModes.isUring(m)).distinct().toList();
    }
}
