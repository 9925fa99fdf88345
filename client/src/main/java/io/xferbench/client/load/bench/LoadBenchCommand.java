package io.xferbench.client.load.bench;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.fileops.FileOpsRun;
import io.xferbench.client.load.fileops.FileOpsWorkload;
import io.xferbench.client.load.fileops.ReadBack;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadReportFormat;
import io.xferbench.client.load.report.SeedTable;
import io.xferbench.client.load.report.SweepChart;
import io.xferbench.client.load.report.SweepChartFile;
import io.xferbench.client.load.target.CgroupSyscallWindow;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.LoadEnvironment;
import io.xferbench.client.load.target.LoadTarget;
import io.xferbench.client.load.target.NginxProcess;
import io.xferbench.client.load.target.OwnedTempDirs;
import io.xferbench.client.load.target.ProcessTree;
import io.xferbench.client.load.target.ServerPlacement;
import io.xferbench.client.load.target.ServerSampler;
import io.xferbench.client.load.target.ServerWatch;
import io.xferbench.client.load.target.WrkRun;
import io.xferbench.client.load.target.XferServerProcess;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Converters;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.registry.DownloadMethods;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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
    public enum FileOp { DOWNLOAD, UPLOAD, DELETE }

    @Option(names = "--format", defaultValue = "table",
            description = "table, json or csv (default: ${DEFAULT-VALUE}).")
    LoadReportFormat format;

    @Option(names = "--out", converter = Converters.OutputFile.class, description = "Write the report here instead of standard output.")
    Path out;

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
        // Unasked, each model runs its own default: the threaded ones DEFAULT_METHOD, the event loops LOOP_DEFAULT_METHOD.
        String asked = method;
        int loops = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        int crc = new ContentGenerator(DataDirectory.SEED).crc32c(fileSize);
        int maxConnections = concurrency.stream().mapToInt(Integer::intValue).max().orElse(1) + 64;
        Path parent = dataParent != null ? dataParent : OwnedTempDirs.defaultParent();
        if (!Files.isDirectory(parent)) {
            throw new ParameterException(spec.commandLine(), "--data-parent " + parent + " is not a directory");
        }
        NginxProcess.removeStale(parent);
        OwnedTempDirs.removeStale(parent, DATA_DIR_PREFIX);
        Path dataDir = OwnedTempDirs.create(parent, DATA_DIR_PREFIX);
        // wrk runs downloads only (over HTTP: nginx's, and the xferbench servers' HTTP side).
        Map<String, Object> environment = LoadEnvironment.describe(dataDir, true, !noWrk && ops.contains(FileOp.DOWNLOAD));
        List<LoadReport.Row> rows = new ArrayList<>();
        ConnectionDrain drain = ConnectionDrain.kernel(drainWait.toMillis());
        ServerPlacement placement = serverLauncher == null && serverAddress.equals("127.0.0.1") ? ServerPlacement.LOOPBACK
                : new ServerPlacement(serverLauncher == null ? List.of() : List.of(serverLauncher.strip().split("\\s+")), serverAddress);
        // Every server runs for the whole bench, so that a round can measure each of them in turn (--repeat): idle, a
        // server costs next to nothing, and every figure of a window is of the one server it drove.
        List<LoadTarget> targets = new ArrayList<>();
        try {
            NginxProcess.makeServable(dataDir);
            for (String model : ioModels) {
                XferServerProcess xfer = XferServerProcess.start(serverJar, dataDir, maxConnections, methodFor(asked, model), model, placement, serverOptions());
                targets.add(xfer);
                // The first download makes the server generate the file (and its checksum record) nginx serves too.
                LoadEngine.run(plan(xfer.address(), 1, 1, Duration.ZERO, 1, duration), xfer.downloads(fileSize, crc).get("native"));
            }
            Optional<Path> nginx = NginxProcess.binary();
            for (NginxProcess.Design design : NginxProcess.designs()) {
                if (nginx.isPresent()) {
                    targets.add(NginxProcess.start(nginx.get(), dataDir, design, maxConnections, placement));
                }
            }
            rows.addAll(measure(targets, loops, crc, drain));
            if (nginx.isEmpty()) {
                for (NginxProcess.Design design : NginxProcess.designs()) {
                    for (int c : concurrency) {
                        for (FileOp op : ops) {
                            rows.add(LoadReport.Row.skipped("nginx", design.id, "xferbench", "http", name(op), fileSize, c,
                                    NginxProcess.missingReason()));
                        }
                    }
                }
            }
        } finally {
            for (LoadTarget t : targets.reversed()) {
                t.close();
            }
            OwnedTempDirs.delete(dataDir);
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("fileSize", Sizes.format(fileSize));
        settings.put("xferbenchMethod", method != null ? method : defaultMethod() + " (event loops: " + LOOP_DEFAULT_METHOD + ")");
        settings.put("xferbenchIoModels", ioModels);
        settings.put("threads", loops);
        settings.put(requests > 0 ? "requests" : "duration", requests > 0 ? requests + " (wrk: " + duration.toMillis() + " ms)"
                : duration.toMillis() + " ms");
        settings.put("operations", ops.stream().map(LoadBenchCommand::name).toList());
        settings.put("uploadMethod", uploadMethod);
        settings.put("warmup", warmup.toMillis() + " ms");
        settings.put("jitSettle", jitSettle.isZero() ? "off" : "at most " + jitSettle.toMillis() + " ms per row, "
                + JitSettle.SLICE_NANOS / 1_000_000 + " ms slices, until the compiler threads take under "
                + Math.round(LoadReport.JIT_NOTED_SHARE * 100) + " % of the server's CPU in " + JitSettle.QUIET_SLICES + " in a row");
        if (ioUringRingSize != null) {
            settings.put("ioUringRingSize", ioUringRingSize);
        }
        settings.put("corkResponses", corkResponses);
        settings.put("repeat", repeat);
        if (repeat > 1) {
            settings.put("repeatWarmup", repeatWarmup().toMillis() + " ms");
        }
        settings.put("loop", "closed");
        settings.put("cache", "warm (the file is read before the window)");
        settings.put("serverAddress", placement.address());
        // The client's end of the path the load took (loopback, or veth with its MTU, qdisc and offloads).
        settings.put("network", io.xferbench.core.metrics.NetworkLinks.towards(java.net.InetAddress.getByName(placement.address())).summary());
        if (!placement.launcher().isEmpty()) {
            settings.put("serverLauncher", String.join(" ", placement.launcher()));
        }
        if (json != null) {
            Files.writeString(json, LoadReport.render(environment, settings, rows, LoadReportFormat.JSON), StandardCharsets.UTF_8);
        }
        String text = LoadReport.render(environment, settings, rows, format);
        if (format == LoadReportFormat.TABLE) {
            text += "\n" + SeedTable.render(rows, seedConcurrency);
        }

        if (out != null) {
            Files.writeString(out, text, StandardCharsets.UTF_8);
            System.err.println("xferbench: report written to " + out);
        } else {
            System.out.print(text);
        }
        // After the table: a chart that cannot be drawn must not cost the run its report.
        SweepChart sweep = SweepChart.of(rows, fileSize, environment, placement.described());
        if (chart != null && sweep.lines().isEmpty()) {
            System.err.println("xferbench: no sweep chart: the chart shows downloads and no download row was measured");
        } else if (chart != null) {
            SweepChartFile.write(sweep, chart);
            System.err.println("xferbench: sweep chart written to " + chart);
        }
        boolean anySkipped = rows.stream().anyMatch(r -> r.skipped() != null);
        if (anySkipped && "1".equals(System.getenv("XFERBENCH_REQUIRE_ALL_METHODS"))) {
            System.err.println("xferbench: XFERBENCH_REQUIRE_ALL_METHODS=1 and some rows were skipped");
            return 1;
        }
        return rows.stream().filter(r -> r.skipped() == null && r.client().equals("xferbench"))
                .allMatch(LoadReport.Row::verified) ? 0 : 1;
    }

    /** The options every xferbench server of the bench gets besides its model. */
    private List<String> serverOptions() {
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
    private record Cell(LoadTarget target, String client, String protocol, Exchange exchange, int connections, FileOp op) {
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
        for (FileOp op : ops) {
            List<Cell> group = windows.keySet().stream().filter(c -> c.op() == op).toList();
            for (RoundSchedule.Turn<Cell> turn : RoundSchedule.interleave(group, repeat)) {
                Duration warm = turn.round() == 0 ? warmup : repeatWarmup();
                JitSettle.Outcome settled = turn.round() == 0 && settles(turn.cell()) ? settle(turn.cell(), loops, crc, drain) : null;
                LoadReport.Row row = window(turn.cell(), turn.round(), warm, wrk, loops, crc, drain);
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

    private JitSettle.Outcome settle(Cell cell, int loops, int crc, ConnectionDrain drain) throws IOException, InterruptedException {
        LoadTarget target = cell.target();
        System.err.printf(Locale.ROOT, "xferbench: %s %s, xferbench %s %s, %d connections: settling its JIT (at most %d s) ...%n",
                target.server(), target.model(), cell.protocol(), name(cell.op()), cell.connections(), jitSettle.toSeconds());
        drain.awaitAndWarn(target.address().getPort());
        JitSettle watch = JitSettle.of(target.processes(), LoadReport.JIT_NOTED_SHARE);
        load(cell, plan(target.address(), cell.connections(), loops, Duration.ZERO, 0, jitSettle), crc, watch);
        JitSettle.Outcome outcome = watch.outcome();
        System.err.printf(Locale.ROOT, "xferbench: %s after %.1f s of load, %d whole seconds watched (compiler threads: %s of "
                + "the server's CPU in the last)%n", outcome.settled() ? "settled" : "not settled", outcome.seconds(), outcome.slices(),
                LoadReport.f("%.0f %%", outcome.lastShare() * 100));
        return outcome;
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
    private Duration repeatWarmup() {
        if (repeatWarmupOption != null) {
            return repeatWarmupOption;
        }
        return warmup.compareTo(Duration.ofSeconds(1)) < 0 ? warmup : Duration.ofSeconds(1);
    }

    private LoadReport.Row window(Cell cell, int round, Duration warm, Optional<Path> wrk, int loops, int crc,
                                  ConnectionDrain drain) throws IOException, InterruptedException {
        LoadTarget target = cell.target();
        if (cell.client().equals("wrk")) {
            return wrk.isEmpty() ? LoadReport.Row.skipped(target.server(), target.model(), "wrk", "http", fileSize,
                    cell.connections(), WrkRun.missingReason()) : wrkWindow(target, wrk.get(), cell.connections(), round, warm, loops, drain);
        }
        drain.awaitAndWarn(target.address().getPort());
        progress(target, "xferbench " + cell.protocol() + " " + name(cell.op()), cell.connections(), round, warm);
        ServerWatch watch = watch(target);
        FileOpsRun.Outcome o = load(cell, plan(target.address(), cell.connections(), loops, warm, requests, duration), crc, watch);
        if (o.skipped() != null) {
            // Should a server still refuse the probe, the row is skipped with its answer.
            return LoadReport.Row.skipped(target.server(), target.model(), "xferbench", cell.protocol(), name(cell.op()), fileSize,
                    cell.connections(), o.skipped());
        }
        return windowRow(target, "xferbench", cell.protocol(), name(cell.op()), cell.connections(), o.result(), watch.figures(),
                watch.report(), watch.syscalls(), o.readBack());
    }

    /** One run of a cell's load (a window, or a slice of settling), watched by {@code observer}. */
    private FileOpsRun.Outcome load(Cell cell, LoadPlan plan, int crc, LoadEngine.WindowObserver observer)
            throws IOException, InterruptedException {
        if (cell.op() == FileOp.DOWNLOAD) {
            return new FileOpsRun.Outcome(LoadEngine.run(plan, cell.exchange(), observer), null, null);
        }
        boolean http = cell.protocol().equals("http");
        return FileOpsRun.run(plan, http ? FileOpsRun.Wire.overHttp() : FileOpsRun.Wire.overNative("", uploadMethod),
                FileOpsWorkload.Kind.valueOf(cell.op().name()), fileSize, crc, FileOpsWorkload.runId(cell.connections()),
                cell.exchange(), cell.exchange(), observer);
    }

    private LoadReport.Row wrkWindow(LoadTarget target, Path wrk, int connections, int round, Duration warm, int loops,
                                     ConnectionDrain drain) throws IOException, InterruptedException {
        String url = target.httpUrl(fileSize);
        drain.awaitAndWarn(target.address().getPort());
        progress(target, "wrk download", connections, round, warm);
        WrkRun.run(wrk, url, connections, loops, warm, () -> { }, () -> { });
        // wrk's warm-up run closed its connections: the measured run starts on a server that has let them go.
        drain.awaitAndWarn(target.address().getPort());
        ServerSampler[] wrkSampler = new ServerSampler[1];
        ServerSampler.ServerFigures[] wrkFigures = new ServerSampler.ServerFigures[1];
        LoadResult w;
        CgroupSyscallWindow.Result counts;
        try (CgroupSyscallWindow syscalls = CgroupSyscallWindow.prepare(target.processes())) {
            w = WrkRun.run(wrk, url, connections, loops, duration, () -> {
                syscalls.open();
                wrkSampler[0] = new ServerSampler(target.processes());
            }, () -> {
                syscalls.finish();
                wrkFigures[0] = finish(wrkSampler[0]);
            });
            counts = syscalls.finish(); // the window's, kept when it closed
        }
        return windowRow(target, "wrk", "http", "download", connections, w, wrkFigures[0], null, counts, null);
    }

    /**
     * A window's row; when the server's process died, its result carries the error and the row no server figures:
     * whatever answered was not the server, and its counters read across the death (a negative CPU per request).
     */
    private LoadReport.Row windowRow(LoadTarget target, String client, String protocol, String op, int connections, LoadResult result,
                                     ServerSampler.ServerFigures figures, MeasurementReport report, CgroupSyscallWindow.Result counts,
                                     ReadBack readBack) {
        ProcessTree processes = target.processes();
        String asked = op.equals("download") ? target.method() : null;
        if (!processes.rootAlive()) {
            System.err.printf(Locale.ROOT, "xferbench: %s %s: its server process (pid %d) exited; the row is no result%n",
                    target.server(), target.model(), processes.rootPid());
            return new LoadReport.Row(target.server(), target.model(), client, protocol, op, fileSize, connections,
                    result.withError("server process exited"), null, null, null, readBack, null).withMethod(asked);
        }
        return new LoadReport.Row(target.server(), target.model(), client, protocol, op, fileSize, connections, result, figures,
                report, counts, readBack, null).withMethod(asked);
    }

    private static ServerWatch watch(LoadTarget target) {
        return new ServerWatch(target.processes(), target.server().equals("xferbench") ? target.address() : null, "");
    }

    private static String name(FileOp op) {
        return op.name().toLowerCase(Locale.ROOT);
    }

    private static LoadPlan plan(InetSocketAddress address, int connections, int loops, Duration warm, long count, Duration length) {
        return new LoadPlan(address, connections, loops, count, length, warm, 0, Duration.ofSeconds(10));
    }

    private static ServerSampler.ServerFigures finish(ServerSampler sampler) {
        try {
            return sampler.finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void progress(LoadTarget target, String client, int connections, int round, Duration warm) {
        System.err.printf(Locale.ROOT, "xferbench: %s %s, %s, %d connections, %s%s ...%n", target.server(), target.model(),
                client, connections, requests > 0 && !client.startsWith("wrk") ? requests + " requests"
                        : warm.plus(duration).toMillis() + " ms", repeat > 1 ? ", round " + (round + 1) + " of " + repeat : "");
    }

    /** The method a model's server is asked for: the one given, else the model's default. */
    static String methodFor(String asked, String model) {
        if (asked != null) {
            return asked;
        }
        return model.startsWith("netty-") ? LOOP_DEFAULT_METHOD : defaultMethod();
    }

    private static String defaultMethod() {
        boolean available = DownloadMethods.byId(DEFAULT_METHOD).map(m -> m.availability().isAvailable()).orElse(false);
        return available ? DEFAULT_METHOD : FALLBACK_METHOD;
    }
}
