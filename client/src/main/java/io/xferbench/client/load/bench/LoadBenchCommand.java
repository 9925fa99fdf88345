package io.xferbench.client.load.bench;

import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadOutputOptions;
import io.xferbench.client.load.report.LoadSettings;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.LoadEnvironment;
import io.xferbench.client.load.target.LoadTarget;
import io.xferbench.client.load.target.NginxProcess;
import io.xferbench.client.load.target.OwnedTempDirs;
import io.xferbench.client.load.target.ServerPlacement;
import io.xferbench.client.load.target.WrkRun;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.registry.DownloadMethods;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The load table ({@code scripts/bench-load}): starts each server design on loopback, drives it with this
 * client's load generator (and wrk, where installed and the server speaks HTTP), and prints one row per design
 * and concurrency with the server's CPU per request and peak threads, next to nginx serving the same files.
 * Every server and temporary directory it made is gone when it returns, whatever happened.
 */
@Command(name = "load-bench", mixinStandardHelpOptions = true,
        description = "Start the xferbench server and nginx (sendfile, aio threads) on loopback and load each with small "
                + "downloads, uploads and deletes.")
public final class LoadBenchCommand implements Callable<Integer> {
    /**
     * The body as every model can send it: the event-loop models write a file region (one sendfile64 on the loop), the
     * thread models the same syscall through the shim, so the table compares I/O models, not the JDK's transferTo probes.
     */
    static final String DEFAULT_METHOD = "sendfile";
    static final String FALLBACK_METHOD = "transfer-to";
    /**
     * The event-loop models' default: their loop picks by size (a file region, or on io_uring sendfile from the loop for
     * a small body), as they answered every download before a method asked of them ran.
     */
    static final String LOOP_DEFAULT_METHOD = "netty-auto";

    public static final String DATA_DIR_PREFIX = "xferbench-load-data-";

    @Spec
    CommandSpec spec;

    @Option(names = "--server-jar", required = true, description = "The xferbench server jar to run.")
    Path serverJar;

    @Option(names = "--method", description = "The xferbench server's transfer method (default: on the threaded models " + DEFAULT_METHOD
            + ", one sendfile64(2) per body, " + FALLBACK_METHOD + " where the native shim cannot run; on the event-loop models "
            + LOOP_DEFAULT_METHOD + ", their loop's own pick by size).")
    String method;

    @Option(names = "--io-models", split = ",", defaultValue = "platform,virtual,virtual+pool:8,netty-epoll,netty-io-uring,"
            + "netty-epoll-inline,netty-io-uring-inline",
            description = "The xferbench server's I/O models, one server per model (default: ${DEFAULT-VALUE}).")
    List<String> ioModels;

    @Option(names = "--file-size", defaultValue = "50KiB", converter = Converters.Size.class,
            description = "Size of the files downloaded, uploaded and deleted (default: ${DEFAULT-VALUE}).")
    long fileSize;

    @Option(names = "--concurrency", split = ",", defaultValue = "50,500", converter = Converters.PositiveInt.class,
            description = "Concurrent connections, one run per value (default: ${DEFAULT-VALUE}).")
    List<Integer> concurrency;

    @Option(names = "--threads", converter = Converters.PositiveInt.class,
            description = "Event-loop threads of the generator and wrk (default: the number of CPUs).")
    Integer threads;

    @Option(names = "--duration", defaultValue = "10s", converter = Converters.Time.class,
            description = "Measured time per row (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "2s", converter = Converters.Time.class,
            description = "Unmeasured load before each row (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--repeat", defaultValue = "1", converter = Converters.PositiveInt.class,
            description = "Measure each row in this many windows, round by round: each round measures every server at every "
                    + "concurrency of an operation once, odd rounds in reverse order. A row shows its median window, the range "
                    + "of requests/s, the ratio to the round's best xferbench model, its median over the best model's median "
                    + "and, with several concurrencies, the ratio to its own row at the fewest connections in the same round "
                    + "(default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--repeat-warmup", converter = Converters.Time.class,
            description = "Unmeasured load before each window after a row's first (default: the smaller of --warmup and 1s).")
    Duration repeatWarmupOption;

    @Option(names = "--jit-settle", defaultValue = "60s", converter = Converters.Time.class,
            description = "Before a row's first window on an xferbench server: the row's own load, unmeasured, until the "
                    + "server's JIT compiler threads took under 5 %% of its CPU in " + JitSettle.QUIET_SLICES
                    + " one-second slices in a row, for at most this long per row; then --warmup as usual. 0s: no settling, a fresh "
                    + "server's first windows include its compilation (default: ${DEFAULT-VALUE}).")
    Duration jitSettle;

    @Option(names = "--io-uring-ring-size", converter = Converters.RingEntries.class, description = "Passed to every "
            + "xferbench server: the entries of the netty-io-uring models' rings (default: the server's, 32).")
    Integer ioUringRingSize;

    @Option(names = "--cork-responses", description = "Passed to every xferbench server: cork each download's answer "
            + "(TCP_CORK) into as few segments as its bytes need instead of sending each part as it is written.")
    boolean corkResponses;

    @Option(names = "--no-wrk", description = "Do not run wrk rows even where wrk is installed.")
    boolean noWrk;

    @Option(names = "--ops", split = ",", defaultValue = "download,upload,delete",
            description = "Operations, a row each: download, upload, delete (default: ${DEFAULT-VALUE}). Uploads and deletes "
                    + "go over each server's protocols that take them (nginx: PUT and DELETE, dav module); wrk runs downloads.")
    List<FileOp> ops;

    @Option(names = "--upload-method", defaultValue = "channel-direct",
            description = "The xferbench server's receiver method for uploads (default: ${DEFAULT-VALUE}).")
    String uploadMethod;

    @Option(names = "--requests", defaultValue = "0", converter = Converters.NonNegativeLong.class,
            description = "Measured requests per row (wrk rows run --duration, wrk has no count); 0: --duration (default: ${DEFAULT-VALUE}).")
    long requests;

    @Option(names = "--drain-wait", defaultValue = "30s", converter = Converters.Time.class,
            description = "Longest wait, before each row, for the server to close the last row's connections (default: ${DEFAULT-VALUE}).")
    Duration drainWait;

    @Option(names = "--seed-concurrency", defaultValue = "500", converter = Converters.PositiveInt.class,
            description = "The concurrency of the summary table (the seed's: time, qps, threads, p99) (default: ${DEFAULT-VALUE}).")
    int seedConcurrency;

    @Option(names = "--data-parent", description = "Where the bench makes the servers' data directory, and nginx's beside it "
            + "(default: the JVM's temporary directory). A tmpfs such as /dev/shm takes the disk out of the upload and delete "
            + "rows, so they compare the servers' CPU rather than the device.")
    Path dataParent;

    @Option(names = "--chart", converter = Converters.OutputFile.class, description = "Write the sweep chart here (PNG: requests/s and server threads against concurrency, "
            + "a line per server design).")
    Path chart;

    /** The operations a bench row can run. */
    enum FileOp { DOWNLOAD, UPLOAD, DELETE }

    @Mixin
    LoadOutputOptions output;

    @Option(names = "--json", converter = Converters.OutputFile.class, description = "Also write the rows as JSON here (whatever --format says).")
    Path json;

    // Set by 'client veth load-bench' (docs/two-hosts.md), not by hand: the servers go into the server's namespace.
    @Option(names = "--server-launcher", hidden = true, description = "Prefix of the server commands, e.g. 'ip netns exec NS taskset -c 0'.")
    String serverLauncher;

    @Option(names = "--server-address", hidden = true, defaultValue = "127.0.0.1", description = "Where the servers listen.")
    String serverAddress;

    /**
     * What the options cannot mean together, refused before anything is made; 'client veth load-bench' asks too, before
     * it makes its namespaces.
     */
    public void checkOptions() {
        if (requests == 0 && !duration.isPositive()) {
            throw new ParameterException(spec.commandLine(), "--duration must be positive when --requests is 0");
        }
    }

    @Override
    public Integer call() throws Exception {
        checkOptions();
        if (!Files.isRegularFile(serverJar)) {
            throw new ParameterException(spec.commandLine(), "no server jar at " + serverJar + " (build it: ./mvnw package -DskipTests)");
        }
        int loops = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        int crc = new ContentGenerator(DataDirectory.SEED).crc32c(fileSize);
        Path dataDir = freshDataDir();
        // wrk runs downloads only (over HTTP: nginx's, and the xferbench servers' HTTP side).
        LoadEnvironment environment = LoadEnvironment.describe(dataDir, true, !noWrk && ops.contains(FileOp.DOWNLOAD));
        ServerPlacement placement = placement();
        List<LoadReport.Row> rows = measureAll(dataDir, placement, loops, crc);
        LoadSettings settings = BenchSettings.of(this, loops, placement);
        BenchOutput.write(this, environment, settings, rows, placement);
        return exitCode(rows);
    }

    /** The bench's data directory under --data-parent, after removing what killed benches left there. */
    private Path freshDataDir() throws IOException {
        Path parent = dataParent != null ? dataParent : OwnedTempDirs.defaultParent();
        if (!Files.isDirectory(parent)) {
            throw new ParameterException(spec.commandLine(), "--data-parent " + parent + " is not a directory");
        }
        NginxProcess.removeStale(parent);
        OwnedTempDirs.removeStale(parent, DATA_DIR_PREFIX);
        return OwnedTempDirs.create(parent, DATA_DIR_PREFIX);
    }

    private ServerPlacement placement() {
        return serverLauncher == null && serverAddress.equals("127.0.0.1") ? ServerPlacement.LOOPBACK
                : new ServerPlacement(serverLauncher == null ? List.of() : List.of(serverLauncher.strip().split("\\s+")), serverAddress);
    }

    /**
     * Every row: starts every server, measures them, then stops them and removes the data directory, whatever happened.
     * Every server runs for the whole bench, so that a round can measure each of them in turn (--repeat): idle, a
     * server costs next to nothing, and every figure of a window is of the one server it drove.
     */
    private List<LoadReport.Row> measureAll(Path dataDir, ServerPlacement placement, int loops, int crc)
            throws IOException, InterruptedException {
        List<LoadReport.Row> rows = new ArrayList<>();
        ConnectionDrain drain = ConnectionDrain.kernel(drainWait.toMillis());
        List<LoadTarget> targets = new ArrayList<>();
        try {
            Optional<Path> nginx = BenchServers.start(this, dataDir, placement, crc, targets);
            rows.addAll(measure(targets, loops, crc, drain));
            if (nginx.isEmpty()) {
                rows.addAll(nginxMissingRows());
            }
        } finally {
            for (LoadTarget t : targets.reversed()) {
                t.close();
            }
            OwnedTempDirs.delete(dataDir);
        }
        return rows;
    }

    private List<LoadReport.Row> nginxMissingRows() {
        List<LoadReport.Row> rows = new ArrayList<>();
        for (NginxProcess.Design design : NginxProcess.designs()) {
            for (int c : concurrency) {
                for (FileOp op : ops) {
                    rows.add(LoadReport.Row.skipped("nginx", design.id, "xferbench", "http", name(op), fileSize, c,
                            NginxProcess.missingReason()));
                }
            }
        }
        return rows;
    }

    /** 1 when a measured row of this client failed verification, or (XFERBENCH_REQUIRE_ALL_METHODS=1) a row was skipped. */
    private static int exitCode(List<LoadReport.Row> rows) {
        boolean anySkipped = rows.stream().anyMatch(r -> r.skipped() != null);
        if (anySkipped && "1".equals(System.getenv("XFERBENCH_REQUIRE_ALL_METHODS"))) {
            System.err.println("xferbench: XFERBENCH_REQUIRE_ALL_METHODS=1 and some rows were skipped");
            return 1;
        }
        return rows.stream().filter(r -> r.skipped() == null && r.client().equals("xferbench"))
                .allMatch(LoadReport.Row::verified) ? 0 : 1;
    }

    /** The options every xferbench server of the bench gets besides its model. */
    List<String> serverOptions() {
        List<String> options = new ArrayList<>();
        if (ioUringRingSize != null) {
            options.addAll(List.of("--io-uring-ring-size", ioUringRingSize.toString()));
        }
        if (corkResponses) {
            options.add("--cork-responses");
        }
        return options;
    }

    /**
     * One row of the table before it is measured: a server, the client driving it (this generator or wrk), the protocol
     * and the way to download, at one concurrency and operation.
     */
    record Cell(LoadTarget target, String client, String protocol, Exchange exchange, int connections, FileOp op) {
    }

    /**
     * Every row, each measured in {@code --repeat} windows: per operation, round by round, each round measuring every
     * server's rows at every concurrency once, a server's concurrencies one after another ({@link RoundSchedule}), so
     * that a row at 1,000 connections is compared with its own row at 50 of the same round; the rows come out in the
     * table's order (server, concurrency, operation, protocol), each folded from its windows ({@link RepeatedRows}).
     */
    private List<LoadReport.Row> measure(List<LoadTarget> targets, int loops, int crc, ConnectionDrain drain)
            throws IOException, InterruptedException {
        Map<Cell, List<LoadReport.Row>> windows = new LinkedHashMap<>();
        for (LoadTarget target : targets) {
            for (int connections : concurrency) {
                for (FileOp op : ops) {
                    cells(target, crc, connections, op).forEach(c -> windows.put(c, new ArrayList<>()));
                }
            }
        }
        Optional<Path> wrk = noWrk ? Optional.empty() : WrkRun.binary();
        CellWindows cellWindows = new CellWindows(this);
        for (FileOp op : ops) {
            List<Cell> group = windows.keySet().stream().filter(c -> c.op() == op).toList();
            for (RoundSchedule.Turn<Cell> turn : RoundSchedule.interleave(group, repeat)) {
                Duration warm = turn.round() == 0 ? warmup : repeatWarmup();
                JitSettle.Outcome settled = turn.round() == 0 && settles(turn.cell()) ? cellWindows.settle(turn.cell(), loops, crc, drain) : null;
                LoadReport.Row row = cellWindows.window(turn.cell(), turn.round(), warm, wrk, loops, crc, drain);
                // The first window carries its row's settle; RepeatedRows keeps it on the folded row.
                windows.get(turn.cell()).add(settled == null || row.skipped() != null ? row : row.withJitSettle(settled));
            }
        }
        return RepeatedRows.merge(new ArrayList<>(windows.values()));
    }

    /**
     * Only the xferbench servers are JVMs, and a wrk row follows the same server's HTTP row at its concurrency, which
     * settled the same code.
     */
    private boolean settles(Cell cell) {
        return !jitSettle.isZero() && cell.client().equals("xferbench") && cell.target().server().equals("xferbench");
    }

    /** The rows of one server at one concurrency and operation, in the order the table shows them. */
    private List<Cell> cells(LoadTarget target, int crc, int connections, FileOp op) {
        List<Cell> cells = new ArrayList<>();
        for (Map.Entry<String, Exchange> way : target.downloads(fileSize, crc).entrySet()) {
            // Uploads and deletes over each protocol the target takes them on (the xferbench server's HTTP side does not).
            if (op == FileOp.DOWNLOAD || target.fileOpProtocols().contains(way.getKey())) {
                cells.add(new Cell(target, "xferbench", way.getKey(), way.getValue(), connections, op));
            }
        }
        if (op == FileOp.DOWNLOAD && !noWrk) {
            cells.add(new Cell(target, "wrk", "http", null, connections, op));
        }
        return cells;
    }

    /** The windows after a row's first: its server is warm, the window needs its connections open and settled. */
    Duration repeatWarmup() {
        if (repeatWarmupOption != null) {
            return repeatWarmupOption;
        }
        return warmup.compareTo(Duration.ofSeconds(1)) < 0 ? warmup : Duration.ofSeconds(1);
    }

    static String name(FileOp op) {
        return op.name().toLowerCase(Locale.ROOT);
    }

    static LoadPlan plan(InetSocketAddress address, int connections, int loops, Duration warm, long count, Duration length) {
        return new LoadPlan(address, connections, loops, count, length, warm, 0, Duration.ofSeconds(10));
    }

    /** The method a model's server is asked for: the one given, else the model's default. */
    static String methodFor(String asked, String model) {
        if (asked != null) {
            return asked;
        }
        return model.startsWith("netty-") ? LOOP_DEFAULT_METHOD : defaultMethod();
    }

    static String defaultMethod() {
        boolean available = DownloadMethods.byId(DEFAULT_METHOD).map(m -> m.availability().isAvailable()).orElse(false);
        return available ? DEFAULT_METHOD : FALLBACK_METHOD;
    }
}
