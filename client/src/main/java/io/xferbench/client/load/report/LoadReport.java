package io.xferbench.client.load.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.engine.UnmeasuredErrors;
import io.xferbench.client.load.exchange.MethodsRun;
import io.xferbench.client.load.fileops.ReadBack;
import io.xferbench.client.load.target.CgroupSyscallWindow;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.ServerSampler;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.HostTuning;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.table.CsvTable;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.TextTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Load rows as a table for people, JSON or CSV for tools. */
public final class LoadReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** The row every other is compared with: nginx's event loop with sendfile, same client, same concurrency. */
    static final String REFERENCE_SERVER = "nginx";
    static final String REFERENCE_MODEL = "sendfile";
    /** The JIT compiler threads' share of a window's server CPU from which the table's legend names the row. */
    public static final double JIT_NOTED_SHARE = 0.05;

    private LoadReport() {
    }

    /**
     * One server design at one concurrency, driven by one client.
     *
     * @param client        the load generator: {@code xferbench} (this client, every body verified) or {@code wrk}
     * @param serverFigures the server's CPU and peak threads over the window, or null when not measured
     * @param serverReport  an xferbench server's own report of the window (threads started from the run's start, carriers, context
     *                      switches, syscalls), or null
     * @param serverCounts  syscalls and context switches of the server's processes counted per cgroup, or null when
     *                      its processes were not watched
     * @param readBack      the files the row's HTTP uploads placed, read back after it, or null (not an HTTP upload row)
     * @param skipped       why the row could not run, or null
     * @param repeats       the row's windows when measured in several ({@code load-bench}), the figures above being
     *                      its median window's; null for a single window that stands alone ({@code client load})
     * @param jitSettle     how long the server was loaded, unmeasured, before the row's first window until its JIT was
     *                      quiet ({@code load-bench}), or null when it was not
     * @param method        the download method the row's downloads asked of the server, or null when they asked none
     *                      (nginx; uploads, deletes, STAT and HEAD; an HTTP path without {@code ?method=})
     */
    public record Row(String server, String model, String client, String protocol, String operation, long fileSize, int concurrency,
               LoadResult result, ServerSampler.ServerFigures serverFigures, MeasurementReport serverReport,
               CgroupSyscallWindow.Result serverCounts, ReadBack readBack, String skipped, Repeats repeats,
               JitSettle.Outcome jitSettle, String method) {

        /** One window's row. */
        public Row(String server, String model, String client, String protocol, String operation, long fileSize, int concurrency,
            LoadResult result, ServerSampler.ServerFigures serverFigures, MeasurementReport serverReport,
            CgroupSyscallWindow.Result serverCounts, ReadBack readBack, String skipped) {
            this(server, model, client, protocol, operation, fileSize, concurrency, result, serverFigures, serverReport,
                    serverCounts, readBack, skipped, null, null, null);
        }

        /** This window as the one shown for all of {@code r}'s windows. */
        public Row withRepeats(Repeats r) {
            return new Row(server, model, client, protocol, operation, fileSize, concurrency, result, serverFigures, serverReport,
                    serverCounts, readBack, skipped, r, jitSettle, method);
        }

        public Row withJitSettle(JitSettle.Outcome s) {
            return new Row(server, model, client, protocol, operation, fileSize, concurrency, result, serverFigures, serverReport,
                    serverCounts, readBack, skipped, repeats, s, method);
        }

        public Row withMethod(String asked) {
            return new Row(server, model, client, protocol, operation, fileSize, concurrency, result, serverFigures, serverReport,
                    serverCounts, readBack, skipped, repeats, jitSettle, asked);
        }

        /** The download method the answers said ran, every window's ({@link MethodsRun#describe}); null when unknown. */
        public String methodRun() {
            return result == null ? null : (repeats == null ? result.methodsRun() : repeats.methodsRun()).describe();
        }

        /** Failed requests by cause: every window's. */
        public Map<String, Long> errorsByCause() {
            return repeats == null ? result.errors() : repeats.errors();
        }

        /** Failed requests outside the window (warm-up, drain) by cause: every window's. */
        UnmeasuredErrors unmeasuredOfAll() {
            return repeats == null ? result.unmeasured() : repeats.unmeasured();
        }

        /** The HTTP uploads' read-back: every window's. */
        ReadBack readBackOfAll() {
            return repeats == null ? readBack : repeats.readBack();
        }

        public static Row skipped(String server, String model, String client, String protocol, long fileSize, int concurrency, String reason) {
            return skipped(server, model, client, protocol, "download", fileSize, concurrency, reason);
        }

        public static Row skipped(String server, String model, String client, String protocol, String operation, long fileSize,
                           int concurrency, String reason) {
            return new Row(server, model, client, protocol, operation, fileSize, concurrency, null, null, null, null, null, reason);
        }

        /**
         * The server's syscalls over the window: counted per cgroup from outside when its processes were watched (all
         * of them, nginx's workers too), else the xferbench server's own count (perf per thread), else null.
         */
        SyscallCounts serverSyscalls() {
            if (serverCounts != null && serverCounts.counts() != null) {
                return serverCounts.counts();
            }
            return serverReport == null ? null : serverReport.syscalls();
        }

        String serverSyscallsSource() {
            if (serverCounts != null && serverCounts.counts() != null) {
                return "perf -a -G: the server's processes in a cgroup, per CPU";
            }
            return serverReport != null && serverReport.syscalls() != null ? "the server's own window: perf per thread" : null;
        }

        String serverSyscallsUnavailable() {
            if (serverSyscalls() != null) {
                return null;
            }
            String outside = serverCounts == null ? "the server's processes were not watched" : serverCounts.unavailable();
            String inside = serverReport == null ? "not an xferbench server" : serverReport.syscallsUnavailable();
            return outside + "; " + inside;
        }

        /** Requests the server answered in the window, failed ones included: what its costs are divided by. */
        private long served() {
            return result == null ? 0 : result.requests() + result.errorCount();
        }

        double serverSyscallsPerRequest() {
            SyscallCounts c = serverSyscalls();
            return c == null || served() == 0 ? Double.NaN : (double) c.total() / served();
        }

        /** Per request, by name, the largest first (the names perf counted; the rest is "other"). */
        Map<String, Double> serverSyscallsByNamePerRequest() {
            SyscallCounts c = serverSyscalls();
            if (c == null || served() == 0) {
                return null;
            }
            Map<String, Double> byName = new LinkedHashMap<>();
            c.nonZero().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(e -> byName.put(e.getKey(), (double) e.getValue() / served()));
            byName.put("other", (double) c.other() / served());
            return byName;
        }

        double serverContextSwitchesPerRequest() {
            if (served() == 0) {
                return Double.NaN;
            }
            if (serverCounts != null && serverCounts.counts() != null) {
                return (double) serverCounts.counts().contextSwitches() / served();
            }
            return serverReport == null ? Double.NaN : (double) serverReport.contextSwitches() / served();
        }

        double serverCpuMicrosPerRequest() {
            if (result == null || serverFigures == null) {
                return Double.NaN;
            }
            long n = result.requests() + result.errorCount();
            return n > 0 ? serverFigures.cpuMicros() / n : Double.NaN;
        }

        /** Every window verified (and, as each must be, driven by this client). */
        public boolean verified() {
            if (repeats != null) {
                return skipped == null && repeats.verified();
            }
            return skipped == null && result.verified() && client.equals("xferbench") && (readBack == null || readBack.ok());
        }

        /** A single window in which every request timed out: its zeros are not a result. */
        boolean noAnswer() {
            return skipped == null && repeats == null && result != null && result.noAnswer();
        }

        boolean isReference() {
            return server.equals(REFERENCE_SERVER) && model.equals(REFERENCE_MODEL);
        }
    }

    /** How the table starts a row whose every request timed out, instead of its zeros. */
    static final String NO_ANSWER = "no answer: ";

    /** Schema of the JSON document: bump when a field changes meaning or goes away. */
    public static final String SCHEMA = "xferbench-load/1";

    /**
     * @param environment where it ran (JDK, kernel, CPUs, servers' versions)
     * @param settings    how it ran (sizes, durations, threads), so a number can be reproduced
     */
    public static String render(Map<String, Object> environment, Map<String, Object> settings, List<Row> rows,
                         LoadReportFormat format) throws JsonProcessingException {
        return switch (format) {
            case TABLE -> header(environment, settings) + table(rows);
            case JSON -> {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("schema", SCHEMA);
                doc.put("environment", environment);
                doc.put("settings", settings);
                doc.put("rows", rows.stream().map(r -> fields(r, rows)).toList());
                yield JSON.writeValueAsString(doc) + "\n";
            }
            case CSV -> csv(rows);
        };
    }

    private static String header(Map<String, Object> environment, Map<String, Object> settings) {
        return "# " + line(environment) + "\n# " + line(settings) + "\n";
    }

    private static String line(Map<String, Object> m) {
        return m.entrySet().stream().map(e -> value(e.getKey(), e.getValue())).collect(Collectors.joining(", "));
    }

    /** One setting for a reader: the kernel settings in words, not a record's toString; memory in GiB, not bytes. */
    private static String value(String key, Object v) {
        if (v instanceof HostTuning t) {
            return key + " " + String.join(", ", t.phrases());
        }
        if (key.equals("memoryBytes") && v instanceof Number n) {
            return String.format(Locale.ROOT, "memory %.1f GiB", n.longValue() / (double) Sizes.GiB);
        }
        return key + " " + v;
    }

    private static Optional<Row> reference(Row row, List<Row> rows) {
        return rows.stream().filter(r -> r.isReference() && r.skipped() == null && r.client().equals(row.client())
                && r.protocol().equals("http") && r.concurrency() == row.concurrency() && r.operation().equals(row.operation()))
                .findFirst();
    }

    public static Map<String, Object> fields(Row row, List<Row> rows) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("server", row.server());
        m.put("model", row.model());
        m.put("client", row.client());
        m.put("protocol", row.protocol());
        m.put("operation", row.operation());
        m.put("fileSizeBytes", row.fileSize());
        m.put("concurrency", row.concurrency());
        if (row.skipped() != null) {
            m.put("skipped", row.skipped());
            return m;
        }
        m.put("method", row.method());
        m.put("methodRun", row.methodRun());
        LoadResult r = row.result();
        if (row.noAnswer()) {
            m.put("noAnswer", "every request timed out: not a result");
        }
        m.put("clientThreads", r.threads());
        m.put("targetRatePerSec", r.targetRatePerSecond());
        m.put("requests", r.requests());
        m.put("seconds", r.seconds());
        m.put("requestsPerSec", r.requestsPerSecond());
        m.put("mibPerSec", num(r.mibPerSecond()));
        m.put("latencyP50Millis", num(r.latency().p50()));
        m.put("latencyP90Millis", num(r.latency().p90()));
        m.put("latencyP99Millis", num(r.latency().p99()));
        m.put("latencyP999Millis", num(r.latency().p999()));
        m.put("latencyMaxMillis", num(r.latency().max()));
        m.put("errors", row.errorsByCause().values().stream().mapToLong(Long::longValue).sum());
        m.put("errorsByCause", row.errorsByCause());
        if (!r.operations().isEmpty()) {
            m.put("operations", r.operations());
        }
        m.put("unfinished", r.unfinished());
        UnmeasuredErrors outside = row.unmeasuredOfAll();
        m.put("warmupErrors", outside.warmupCount());
        m.put("warmupErrorsByCause", outside.warmup());
        m.put("drainErrors", outside.drainCount());
        m.put("drainErrorsByCause", outside.drain());
        if (row.readBackOfAll() != null) {
            m.put("readBack", row.readBackOfAll());
        }
        m.put("serverCpuMicrosPerRequest", num(row.serverCpuMicrosPerRequest()));
        m.put("serverThreadsPeak", row.serverFigures() == null ? null : row.serverFigures().threadsPeak());
        m.put("serverJitCpuShare", row.serverFigures() == null ? null : num(row.serverFigures().jitShare()));
        JitSettle.Outcome settle = row.jitSettle();
        if (settle != null) {
            m.put("jitSettleSlices", settle.slices());
            m.put("jitSettleSeconds", settle.seconds());
            m.put("jitSettleLastShare", num(settle.lastShare()));
            m.put("jitSettled", settle.settled());
        }
        MeasurementReport sr = row.serverReport();
        m.put("serverThreadsStarted", sr == null ? null : sr.threadsStarted());
        m.put("serverCarrierThreads", sr == null || sr.carrierThreads() < 0 ? null : sr.carrierThreads());
        m.put("serverSyscallsPerRequest", num(row.serverSyscallsPerRequest()));
        m.put("serverSyscallsByNamePerRequest", row.serverSyscallsByNamePerRequest());
        m.put("serverSyscallsSource", row.serverSyscallsSource());
        m.put("serverSyscallsUnavailable", row.serverSyscallsUnavailable());
        m.put("serverContextSwitchesPerRequest", num(row.serverContextSwitchesPerRequest()));
        m.put("clientCpuMicrosPerRequest", num(r.clientCpuMicrosPerRequest()));
        m.put("clientBusiestLoopShare", num(r.clientBusiestLoopShare()));
        Optional<Row> ref = reference(row, rows);
        m.put("requestsPerSecVsNginx", ref.map(x -> num(r.requestsPerSecond() / x.result().requestsPerSecond())).orElse(null));
        m.put("serverCpuVsNginx", ref.map(x -> num(row.serverCpuMicrosPerRequest() / x.serverCpuMicrosPerRequest())).orElse(null));
        Repeats rep = row.repeats();
        if (rep != null) {
            m.put("repeats", rep.windows());
            m.put("requestsPerSecMin", rep.requestsPerSecMin());
            m.put("requestsPerSecMax", rep.requestsPerSecMax());
            m.put("requestsPerSecByRound", rep.requestsPerSecByRound());
            Repeats.Spread best = rep.ratioToBest();
            m.put("ratioToBestMedian", best == null ? null : best.median());
            m.put("ratioToBestMin", best == null ? null : best.min());
            m.put("ratioToBestMax", best == null ? null : best.max());
            m.put("medianToBestMedian", rep.medianToBestMedian());
            Repeats.VsFewest few = rep.vsFewest();
            m.put("fewestConnections", few == null ? null : few.connections());
            m.put("ratioToFewestConnectionsMedian", few == null ? null : few.ratio().median());
            m.put("ratioToFewestConnectionsMin", few == null ? null : few.ratio().min());
            m.put("ratioToFewestConnectionsMax", few == null ? null : few.ratio().max());
        }
        m.put("verified", row.verified());
        return m;
    }

    /** JSON has no NaN: an unmeasured figure is null. */
    private static Double num(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String table(List<Row> rows) {
        boolean ranges = rows.stream().anyMatch(r -> r.repeats() != null && r.repeats().windows() > 1);
        boolean vsBest = rows.stream().anyMatch(r -> r.repeats() != null && r.repeats().ratioToBest() != null);
        OptionalInt fewest = rows.stream().filter(r -> r.repeats() != null && r.repeats().vsFewest() != null)
                .mapToInt(r -> r.repeats().vsFewest().connections()).min();
        List<String[]> cells = new ArrayList<>();
        cells.add(columns(ranges, vsBest, fewest.isPresent(), new String[] {"server", "model", "client", "proto", "op", "file", "conns",
            "req/s", "req/s range", "p50 ms", "p99 ms", "p99.9 ms", "errors", "srv µs/req", "srv threads", "started", "carriers",
            "sys/req", "cs/req", "client µs/req", "loop busy", "vs nginx req/s", "vs nginx cpu", "vs best req/s", "vs best median",
            "vs " + fewest.orElse(0) + " conns", "warm-up/drain errors", "verified"}));
        for (Row row : rows) {
            String instead = row.skipped() != null ? "skipped: " + row.skipped() : row.noAnswer() ? NO_ANSWER + "every request timed "
                    + "out (" + row.result().errorCount() + " TIMEOUT): not a result, not verified" : null;
            if (instead != null) {
                String[] line = new String[cells.get(0).length];
                java.util.Arrays.fill(line, "");
                System.arraycopy(new String[] {row.server(), modelCell(row), row.client(), row.protocol(), row.operation(),
                    Sizes.format(row.fileSize()), String.valueOf(row.concurrency()), instead}, 0, line, 0, 8);
                cells.add(line);
                continue;
            }
            LoadResult r = row.result();
            Optional<Row> ref = reference(row, rows);
            Repeats rep = row.repeats();
            cells.add(columns(ranges, vsBest, fewest.isPresent(), new String[] {row.server(), modelCell(row), row.client(), row.protocol(), row.operation(),
                Sizes.format(row.fileSize()), String.valueOf(row.concurrency()), f("%.0f", r.requestsPerSecond()),
                rep == null ? "" : String.format(Locale.ROOT, "%.0f–%.0f of %d", rep.requestsPerSecMin(), rep.requestsPerSecMax(), rep.windows()),
                f("%.2f", r.latency().p50()),
                f("%.2f", r.latency().p99()), f("%.2f", r.latency().p999()), errors(row.errorsByCause(), row.readBackOfAll()),
                f("%.1f", row.serverCpuMicrosPerRequest()),
                row.serverFigures() == null ? "n/a" : String.valueOf(row.serverFigures().threadsPeak()),
                row.serverReport() == null ? "n/a" : String.valueOf(row.serverReport().threadsStarted()),
                row.serverReport() == null || row.serverReport().carrierThreads() < 0 ? "n/a"
                        : String.valueOf(row.serverReport().carrierThreads()),
                f("%.1f", row.serverSyscallsPerRequest()), f("%.2f", row.serverContextSwitchesPerRequest()),
                f("%.1f", r.clientCpuMicrosPerRequest()), f("%.0f%%", r.clientBusiestLoopShare() * 100),
                ref.map(x -> f("%.2f×", r.requestsPerSecond() / x.result().requestsPerSecond())).orElse(""),
                ref.map(x -> f("%.2f×", row.serverCpuMicrosPerRequest() / x.serverCpuMicrosPerRequest())).orElse(""),
                rep == null || rep.ratioToBest() == null ? "" : ratio(rep.ratioToBest()),
                rep == null || rep.medianToBestMedian() == null ? "" : f("%.2f", rep.medianToBestMedian()),
                rep == null || rep.vsFewest() == null ? "" : ratio(rep.vsFewest().ratio()), outsideErrors(row.unmeasuredOfAll()),
                verifiedCell(row)}));
        }
        return align(cells, 7) + legend(rows);
    }

    /** The model, and where the answers named another method than the one asked, what ran: {@code , ran X}. */
    static String modelCell(Row row) {
        String ran = row.methodRun();
        return ran == null || ran.equals(row.method()) ? row.model() : row.model() + ", ran " + ran;
    }

    /**
     * Drops the repeat columns (req/s range at 8, vs best at 23 and 24, vs the fewest connections at 25) a table without
     * them has no use for.
     */
    private static String[] columns(boolean ranges, boolean vsBest, boolean vsFewest, String[] all) {
        List<String> kept = new ArrayList<>(List.of(all));
        if (!vsFewest) {
            kept.remove(25);
        }
        if (!vsBest) {
            kept.subList(23, 25).clear();
        }
        if (!ranges) {
            kept.remove(8);
        }
        return kept.toArray(String[]::new);
    }

    /** The median of the per-round ratios; with several rounds their range and number, e.g. {@code 0.93 (0.85–1.02 of 5)}. */
    public static String ratio(Repeats.Spread s) {
        return s.of() <= 1 ? f("%.2f", s.median())
                : String.format(Locale.ROOT, "%.2f (%.2f–%.2f of %d)", s.median(), s.min(), s.max(), s.of());
    }

    /** A cell that stands for a row's figures (it has none, or none worth showing): it may overflow the columns. */
    private static boolean insteadOfFigures(String cell) {
        return cell.startsWith("skipped: ") || cell.startsWith(NO_ANSWER);
    }

    /**
     * Lines up {@code cells} (the headers first): the first {@code textColumns} columns are text, the rest figures; a
     * row whose figures stand replaced by one cell (skipped, no answer) spans them with it.
     */
    static String align(List<String[]> cells, int textColumns) {
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < cells.get(0).length; i++) {
            columns.add(i < textColumns ? Column.left(cells.get(0)[i]) : Column.right(cells.get(0)[i]));
        }
        Table table = Table.of(columns);
        for (String[] line : cells.subList(1, cells.size())) {
            if (line.length > textColumns + 1 && insteadOfFigures(line[textColumns])) {
                table.spanningRow("skipped", List.of(line).subList(0, textColumns + 1));
            } else {
                table.row(line);
            }
        }
        return TextTable.aligned(table);
    }

    private static String legend(List<Row> rows) {
        boolean open = rows.stream().anyMatch(r -> r.result() != null && r.result().targetRatePerSecond() > 0);
        StringBuilder sb = new StringBuilder();
        sb.append(open ? "Open loop: latency from each request's intended start (coordinated omission corrected).\n"
                : "Closed loop: each connection sends its next request when its last one completes.\n");
        sb.append("client xferbench: every body verified by length and CRC32C; 'loop busy' is its busiest event-loop thread's "
                + "CPU share (near 100% the client may be the limit).\n");
        sb.append("proto: native is xferbench's binary protocol (a header and a trailer frame per response), http is HTTP/1.1 "
                + "keep-alive (GET, HEAD, PUT, DELETE).\n");
        if (rows.stream().anyMatch(r -> !modelCell(r).equals(r.model()))) {
            sb.append("model, ran X: the download method the server said ran, where it is not the one asked (HTTP: its X-Xferbench-Method, "
                    + "several when they differed between answers; native: the one asked, which the server runs or refuses, but "
                    + "netty-auto's pick by size is not named there).\n");
        }
        if (rows.stream().anyMatch(r -> r.server().equals("xferbench") && !r.operation().equals("download"))) {
            sb.append("xferbench uploads and deletes: native protocol only (its HTTP side serves GET and HEAD).\n");
        }
        if (rows.stream().anyMatch(r -> r.readBack() != null)) {
            sb.append("HTTP uploads: a PUT whose answer carries X-Xferbench-Crc32c is checked against the body's CRC32C (a "
                    + "mismatch is a 'crc mismatch' error); after the row every file whose last request was a verified PUT is "
                    + "read back (GET) and its CRC32C checked; failures show as 'read-back: ...' errors and the row is not "
                    + "verified. 'by status only' counts the PUTs whose answer said nothing of the bytes stored.\n");
        }
        if (rows.stream().anyMatch(r -> r.result() != null && !r.unmeasuredOfAll().isEmpty())) {
            sb.append("warm-up/drain errors: requests that failed while the generator warmed up or drained, outside the "
                    + "window's figures; any one makes the row not verified.\n");
        }
        if (rows.stream().anyMatch(r -> r.repeats() != null && r.repeats().windows() > 1)) {
            sb.append("Repeated rows: each row measured in several windows, round by round (every server at every concurrency "
                    + "of the operation once per round, odd rounds in reverse order); every figure is the window with the median "
                    + "req/s (the lower middle one for an even number), req/s range is all windows', errors and verified cover "
                    + "all windows.\n");
        }
        if (rows.stream().anyMatch(r -> r.repeats() != null && r.repeats().ratioToBest() != null)) {
            sb.append("vs best req/s: req/s over the best xferbench model's in the same round (same client, protocol, operation "
                    + "and connections); the median over rounds, with the rounds' range and number. A round's best is the luckiest "
                    + "of its models' windows, so models of like speed all sit under 1 by about the rounds' noise.\n");
            sb.append("vs best median: the row's median req/s over the highest median req/s among the xferbench models (same "
                    + "client, protocol, operation and connections), which that luck does not bias.\n");
        }
        if (rows.stream().anyMatch(r -> r.repeats() != null && r.repeats().vsFewest() != null)) {
            sb.append("vs N conns: req/s over the same row's at the fewest connections (N) in the same round; the median over "
                    + "rounds, with the rounds' range and number. Under 1 the row slows as connections grow.\n");
        }
        if (rows.stream().anyMatch(r -> r.client().equals("wrk"))) {
            sb.append("client wrk: an independent check of the generator's ceiling; it checks status codes, not bodies.\n");
        }
        if (rows.stream().anyMatch(r -> r.serverFigures() != null)) {
            sb.append("srv µs/req: CPU of all the server's processes (user + system, /proc) over the window per request; "
                    + "srv threads: peak live threads, sampled every 10 ms; vs nginx: against nginx sendfile, same client and "
                    + "connections, over HTTP.\n");
        }
        String compiling = rows.stream().filter(r -> r.serverFigures() != null && r.serverFigures().jitShare() >= JIT_NOTED_SHARE)
                .map(r -> String.format(Locale.ROOT, "%s %s %s %d conns %.0f%%", r.server(), r.model(), r.protocol(), r.concurrency(),
                        r.serverFigures().jitShare() * 100))
                .collect(Collectors.joining(", "));
        if (!compiling.isEmpty()) {
            sb.append("JIT: in these rows' windows the server's JIT compiler threads took this share of its CPU (it was still "
                    + "warming up; a longer --jit-settle or --repeat helps): ").append(compiling).append(".\n");
        }
        sb.append(settleLegend(rows));
        if (rows.stream().anyMatch(r -> r.serverReport() != null)) {
            sb.append("started: platform threads the xferbench server started from the run's start, warm-up included (ThreadMXBean); carriers: its "
                    + "virtual-thread scheduler's carrier threads at the window's end (JDK 24+).\n");
        }
        if (rows.stream().anyMatch(r -> r.serverSyscalls() != null)) {
            sb.append("sys/req, cs/req: the server's syscalls and context switches per request, counted by the kernel for all "
                    + "its processes in a cgroup on every CPU (perf stat -a -G; the JSON has them by name); where that is not "
                    + "possible, the xferbench server's own count (perf per thread, getrusage); n/a where neither counts.\n");
        }
        return sb.toString();
    }

    /** How long the rows' servers were loaded before their first windows until their JIT was quiet, and which never were. */
    private static String settleLegend(List<Row> rows) {
        List<Row> settled = rows.stream().filter(r -> r.jitSettle() != null).toList();
        if (settled.isEmpty()) {
            return "";
        }
        java.util.DoubleSummaryStatistics seconds = settled.stream().mapToDouble(r -> r.jitSettle().seconds()).summaryStatistics();
        String restless = settled.stream().filter(r -> !r.jitSettle().settled())
                .map(r -> String.format(Locale.ROOT, "%s %s %s %s %d conns (%s in its last second)", r.server(), r.model(),
                        r.protocol(), r.operation(), r.concurrency(), f("%.0f%%", r.jitSettle().lastShare() * 100)))
                .collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "JIT settle: before its first window each xferbench row ran its own load unmeasured "
                + "until the server's compiler threads took under %.0f%% of its CPU in %d slices of %d s in a row: "
                + "%s s per row", JIT_NOTED_SHARE * 100, JitSettle.QUIET_SLICES, JitSettle.SLICE_NANOS / 1_000_000_000,
                span(seconds.getMin(), seconds.getMax()))
                + (restless.isEmpty() ? ".\n" : "; not quiet within --jit-settle: " + restless + ".\n");
    }

    /** {@code 43-60}, or one number when both ends round alike (it printed {@code 5-5 s per row}). */
    private static String span(double min, double max) {
        String a = String.format(Locale.ROOT, "%.0f", min);
        String b = String.format(Locale.ROOT, "%.0f", max);
        return a.equals(b) ? a : a + "-" + b;
    }

    /** The run's errors, and the read-back's failures after it (which are not requests of the window). */
    private static String errors(Map<String, Long> runErrors, ReadBack readBack) {
        Map<String, Long> all = new TreeMap<>(runErrors);
        if (readBack != null) {
            readBack.errors().forEach((k, v) -> all.merge(k, v, Long::sum));
        }
        if (all.isEmpty()) {
            return "0";
        }
        return all.values().stream().mapToLong(Long::longValue).sum() + " (" + all.entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")) + ")";
    }

    /** yes or NO, and for HTTP uploads what was checked beyond a status; wrk checks statuses only. */
    private static String verifiedCell(Row row) {
        if (!row.client().equals("xferbench")) {
            return "status only";
        }
        String note = row.readBackOfAll() == null ? null : row.readBackOfAll().statusOnlyNote();
        return (row.verified() ? "yes" : "NO") + (note == null ? "" : " (" + note + ")");
    }

    /** What failed while warming up and while draining, e.g. {@code warm-up 3 (crc mismatch: 3)}; "0" when nothing did. */
    private static String outsideErrors(UnmeasuredErrors u) {
        if (u.isEmpty()) {
            return "0";
        }
        List<String> parts = new ArrayList<>();
        if (!u.warmup().isEmpty()) {
            parts.add("warm-up " + errors(u.warmup(), null));
        }
        if (!u.drain().isEmpty()) {
            parts.add("drain " + errors(u.drain(), null));
        }
        return String.join("; ", parts);
    }

    private static String csv(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        List<Map<String, Object>> maps = rows.stream().map(r -> fields(r, rows)).toList();
        List<String> keys = new ArrayList<>();
        for (Map<String, Object> m : maps) {
            m.keySet().stream().filter(k -> !keys.contains(k) && !k.endsWith("ByCause") && !k.equals("operations")).forEach(keys::add);
        }
        Table table = Table.of(keys.stream().map(Column::left).toList());
        for (Map<String, Object> m : maps) {
            table.row(keys.stream().map(k -> m.get(k) == null ? "" : String.valueOf(m.get(k))).toList());
        }
        return CsvTable.render(table);
    }

    public static String f(String pattern, double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, pattern, v) : "n/a";
    }
}
