package io.xferbench.client.load.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.engine.UnmeasuredErrors;
import io.xferbench.client.load.exchange.MethodsRun;
import io.xferbench.client.load.fileops.ReadBack;
import io.xferbench.client.load.target.CgroupSyscallWindow;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.LoadEnvironment;
import io.xferbench.client.load.target.ServerSampler;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.HostTuning;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.protocol.MeasurementReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
    public static String render(LoadEnvironment environment, LoadSettings settings, List<Row> rows, LoadReportFormat format)
            throws JsonProcessingException {
        return switch (format) {
            case TABLE -> header(environment, settings) + LoadTable.table(rows);
            case JSON -> JSON.writeValueAsString(new Document(SCHEMA, environment, settings, fields(rows))) + "\n";
            case CSV -> LoadCsv.render(fields(rows));
        };
    }

    /** The JSON document ({@link #SCHEMA}). */
    private record Document(String schema, LoadEnvironment environment, LoadSettings settings, List<LoadRowFields> rows) {
    }

    /** Each row's fields, compared with the others (nginx's row, the best model). */
    private static List<LoadRowFields> fields(List<Row> rows) {
        return rows.stream().map(r -> LoadRowFields.of(r, rows)).toList();
    }

    private static String header(LoadEnvironment environment, LoadSettings settings) throws JsonProcessingException {
        return "# " + line(environment) + "\n# " + line(settings) + "\n";
    }

    /** Every field as the JSON writes it, {@code name value}, in its order. */
    private static String line(Object described) throws JsonProcessingException {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : JSON.valueToTree(described).properties()) {
            parts.add(value(field.getKey(), field.getValue()));
        }
        return String.join(", ", parts);
    }

    /** One setting for a reader: the kernel settings in words, not as JSON; memory in GiB, not bytes. */
    private static String value(String key, JsonNode v) throws JsonProcessingException {
        if (key.equals("tuning") && v.isObject()) {
            return key + " " + String.join(", ", JSON.treeToValue(v, HostTuning.class).phrases());
        }
        if (key.equals("memoryBytes") && v.isNumber()) {
            return String.format(Locale.ROOT, "memory %.1f GiB", v.asLong() / (double) Sizes.GiB);
        }
        return key + " " + JSON.treeToValue(v, Object.class);
    }

    static Optional<Row> reference(Row row, List<Row> rows) {
        return rows.stream().filter(r -> r.isReference() && r.skipped() == null && r.client().equals(row.client())
                && r.protocol().equals("http") && r.concurrency() == row.concurrency() && r.operation().equals(row.operation()))
                .findFirst();
    }

    /** The median of the per-round ratios; with several rounds their range and number, e.g. {@code 0.93 (0.85–1.02 of 5)}. */
    public static String ratio(Repeats.Spread s) {
        return s.of() <= 1 ? f("%.2f", s.median())
                : String.format(Locale.ROOT, "%.2f (%.2f–%.2f of %d)", s.median(), s.min(), s.max(), s.of());
    }

    /** The run's errors, and the read-back's failures after it (which are not requests of the window). */
    static String errors(Map<String, Long> runErrors, ReadBack readBack) {
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

    public static String f(String pattern, double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, pattern, v) : "n/a";
    }
}
