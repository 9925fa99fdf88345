package io.xferbench.client.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.client.report.Report;
import io.xferbench.client.report.RunSummary;
import io.xferbench.client.result.DirectionJson;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import io.xferbench.core.metrics.NetworkPath;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.TextTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Renders a {@link Report} in a {@link ReportFormat}: a text table, JSON (schema in docs/results.md) or CSV here;
 * Markdown and HTML by {@link MarkdownReport} and {@link HtmlReport}.
 */
public final class ReportWriter {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportWriter() {
    }

    public static String render(Report report, String format) throws IOException {
        for (ReportFormat f : ReportFormat.values()) {
            if (f.id().equals(format)) {
                return render(report, f);
            }
        }
        throw new IllegalArgumentException("unknown format " + format + " (table, json, csv, markdown, html)");
    }

    public static String render(Report report, ReportFormat format) throws IOException {
        return switch (format) {
            case JSON -> JSON.writeValueAsString(report) + "\n";
            case CSV -> csv(report);
            case TABLE -> table(report);
            case MARKDOWN -> MarkdownReport.render(report);
            case HTML -> HtmlReport.render(report);
        };
    }

    public static String table(Report report) {
        StringWriter out = new StringWriter();
        PrintWriter p = new PrintWriter(out);
        // People read the header: summary lines with sizes in binary units; the full environment is in the JSON.
        for (String line : RunSummary.lines(report)) {
            p.println(line);
        }
        NetworkPath network = report.network();
        if (network != null) {
            p.println("network: " + network.path() + "; client " + network.client().summary()
                    + (network.server() == null ? "" : "; " + side(report.results()) + " " + network.server().summary()));
        }
        p.println();
        // Rows that move bytes first, then empty-body exchanges; proxy rows one section per scenario.
        Map<String, List<MethodResult>> bulk = new LinkedHashMap<>();
        Map<String, List<MethodResult>> exchanges = new LinkedHashMap<>();
        for (MethodResult r : report.results()) {
            (r.row().size() > 0 ? bulk : exchanges).computeIfAbsent(String.valueOf(r.row().scenario()), k -> new ArrayList<>()).add(r);
        }
        boolean first = true;
        for (List<MethodResult> rows : bulk.values()) {
            first = heading(p, rows.get(0).row().scenario(), first);
            throughput(p, rows);
        }
        for (List<MethodResult> rows : exchanges.values()) {
            first = heading(p, rows.get(0).row().scenario(), first);
            exchanges(p, rows);
        }
        List<MethodResult> uploads = report.results().stream().filter(r -> r.uploadPhasesMillis() != null).toList();
        if (!uploads.isEmpty()) {
            p.println();
            uploadPhases(p, uploads);
        }
        if (first) {
            throughput(p, List.of());
        }
        if (report.results().stream().anyMatch(r -> r.sharing().wasShared())) {
            p.println();
            p.println("shared: other clients' connections worked in the measured process during that row's window; its CPU, "
                    + "context switch and syscall columns include their work.");
        }
        p.flush();
        return out.toString();
    }

    /** A blank line between sections, and what a proxy scenario's rows are; returns false (no longer the first). */
    private static boolean heading(PrintWriter p, MethodResult.Scenario scenario, boolean first) {
        if (!first) {
            p.println();
        }
        if (scenario != null) {
            p.println(switch (scenario) {
                case SMALL -> "proxy, small: empty-body exchanges (0-byte downloads) on kept-alive connections";
                case CONNECT -> "proxy, connect: a new connection per empty-body exchange (connect, PROXY frame, exchange, close)";
                case BULK -> "proxy, bulk: bodies downloaded through the proxy on kept-alive connections";
            });
        }
        return false;
    }

    /** Whose CPU and syscalls the far-side columns are: the proxy's for proxy rows, else the server's. */
    private static String side(List<MethodResult> rows) {
        return !rows.isEmpty() && rows.stream().allMatch(r -> r.row().direction() == Direction.RELAY) ? "proxy" : "server";
    }

    /** Rows that move bytes: MiB/s, latency in ms, CPU and syscalls per GiB. */
    private static void throughput(PrintWriter p, List<MethodResult> rows) {
        String side = side(rows);
        Table table = Table.of(columns(side, "MiB/s median [min..max]", 5, "xfers", "p50 ms", "p99 ms", "CPU s/GiB",
                "syscalls/GiB", "ctx sw/GiB", "syscalls/GiB by name"));
        for (MethodResult r : rows) {
            if (unmeasured(table, r)) {
                continue;
            }
            MethodResult.Throughput t = r.throughput();
            double gib = t.bytes() / (double) Sizes.GiB;
            String rate = rate(t, t.mibPerSec(), t.mibPerSecMin(), t.mibPerSecMax());
            String syscalls = r.syscallCounts().perGiB() == null ? "n/a" : String.format(Locale.ROOT, "%.0f", r.syscallCounts().perGiB());
            table.row(r.label(), Sizes.format(r.row().size()), rate, Integer.toString(t.transfers()),
                    latency(r, MethodResult.Latency::p50, 1, "%.2f"), latency(r, MethodResult.Latency::p99, 1, "%.2f"),
                    cpu(r.clientCpu()), cpu(r.serverCpu()), syscalls, switches(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerGiB, "%.0f"),
                    threadsPeak(r), verified(r), MethodSyscalls.cell(r, gib, "%.0f"));
        }
        p.print(TextTable.aligned(table, 1));
    }

    /** Empty-body request/response rows: req/s, latency in µs, CPU µs and syscalls per request. */
    private static void exchanges(PrintWriter p, List<MethodResult> rows) {
        String side = side(rows);
        Table table = Table.of(columns(side, "req/s median [min..max]", 7, "reqs", "p50 us", "p99 us", "CPU us/req",
                "syscalls/req", "ctx sw/req", "syscalls/req by name"));
        for (MethodResult r : rows) {
            if (unmeasured(table, r)) {
                continue;
            }
            MethodResult.Throughput t = r.throughput();
            String rate = t.transfersPerSec() == null ? "n/a"
                    : rate(t, t.transfersPerSec(), t.transfersPerSecMin(), t.transfersPerSecMax());
            String syscalls = r.syscallCounts().perTransfer() == null ? "n/a" : String.format(Locale.ROOT, "%.2f", r.syscallCounts().perTransfer());
            table.row(r.label(), Sizes.format(r.row().size()), rate, Integer.toString(t.transfers()),
                    latency(r, MethodResult.Latency::p50, 1000, "%.1f"), latency(r, MethodResult.Latency::p99, 1000, "%.1f"),
                    cpuPerTransfer(r.clientCpu()), cpuPerTransfer(r.serverCpu()), syscalls,
                    switches(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerTransfer, "%.2f"), threadsPeak(r), verified(r),
                    MethodSyscalls.cell(r, t.transfers(), "%.2f"));
        }
        p.print(TextTable.aligned(table, 1));
    }

    /**
     * The columns of both tables, separated by one space (two before verified); the minimum widths keep a section's
     * columns where the others' are.
     */
    private static List<Column> columns(String side, String rate, int countWidth, String count, String p50, String p99,
                                        String cpuUnit, String syscalls, String switches, String byName) {
        return List.of(Column.left("method").atLeast(15), Column.left("size").atLeast(9), Column.left(rate).atLeast(24),
                Column.right(count).atLeast(countWidth), Column.right(p50).atLeast(8), Column.right(p99).atLeast(8),
                Column.right("client usr/sys\n" + cpuUnit).atLeast(15), Column.right(side + " usr/sys\n" + cpuUnit).atLeast(15),
                Column.right(syscalls).atLeast(12), Column.right(switches + "\n" + side).atLeast(11),
                Column.right("threads\npeak").atLeast(8), Column.left("verified").atLeast(10).setApart(), Column.left(side + " " + byName));
    }

    /**
     * Where an upload's time goes on the server (medians per transfer): receiving the body into the temp file, re-reading
     * it for the CRC32C (zero-copy receivers only), fsync (--fsync only). The client's latency includes all three.
     */
    private static void uploadPhases(PrintWriter p, List<MethodResult> rows) {
        Table table = Table.of(Column.left("upload phases").atLeast(15), Column.left("size").atLeast(9),
                Column.right("receive p50 ms").atLeast(16), Column.right("verify p50 ms").atLeast(15),
                Column.right("fsync p50 ms").atLeast(14));
        for (MethodResult r : rows) {
            MethodResult.UploadPhases m = r.uploadPhasesMillis();
            table.row(r.label(), Sizes.format(r.row().size()), millis(m.receiveP50()), verify(m.verifyP50()), millis(m.fsyncP50()));
        }
        p.print(TextTable.aligned(table, 1));
    }

    /** {@code median [min..max]}, or {@code median (no range)} for one figure ({@link MethodResult.Throughput#single}). */
    static String rate(MethodResult.Throughput t, double median, double min, double max) {
        return t.single() ? String.format(Locale.ROOT, "%.0f (no range)", median)
                : String.format(Locale.ROOT, "%.0f [%.0f..%.0f]", median, min, max);
    }

    /** "yes", or "yes shared" when the far side's columns include other clients' work; "NO" unverified. */
    private static String verified(MethodResult r) {
        return (r.measured() ? "yes" : "NO") + (r.sharing().wasShared() ? " shared" : "");
    }

    /** The measured process's peak live threads in the window (io-wq workers included), "n/a" when not counted. */
    static String threadsPeak(MethodResult r) {
        return r.serverThreadsPeak() == null ? "n/a" : r.serverThreadsPeak().toString();
    }

    /** Context switches of the measured process per GiB or per request; "n/a" when not counted. */
    static String switches(MethodResult.Cpu cpu, Function<MethodResult.Cpu, Double> figure, String format) {
        Double v = cpu == null ? null : figure.apply(cpu);
        return v == null ? "n/a" : String.format(Locale.ROOT, format, v);
    }

    /** A latency percentile times {@code scale}; n/a for rows without one (merged clients' rows: percentiles do not add). */
    static String latency(MethodResult r, java.util.function.ToDoubleFunction<MethodResult.Latency> percentile, double scale, String format) {
        return r.latencyMillis() == null ? "n/a" : String.format(Locale.ROOT, format, percentile.applyAsDouble(r.latencyMillis()) * scale);
    }

    /**
     * The re-read's median; "inline" when it is 0: the server reports 0 for a receiver that checksums the bytes as they
     * pass (UploadReport), whose CRC32C is inside its receive time, not free as "0.00" said.
     */
    private static String verify(Double ms) {
        return ms != null && ms == 0 ? "inline" : millis(ms);
    }

    private static String millis(Double ms) {
        return ms == null ? "-" : String.format(Locale.ROOT, "%.2f", ms);
    }

    /** Adds a skipped or failed row, its reason in place of its figures; false for a measured one. */
    private static boolean unmeasured(Table table, MethodResult r) {
        switch (r.status()) {
            case MethodResult.Status.Skipped s ->
                    table.spanningRow("skipped", List.of(r.label(), Sizes.format(r.row().size()), "skipped: " + s.reason()));
            case MethodResult.Status.Failed f ->
                    table.spanningRow("failed", List.of(r.label(), Sizes.format(r.row().size()), "FAILED: " + f.cause()));
            case MethodResult.Status.Measured m -> {
                return false;
            }
        }
        return true;
    }

    private static String cpuPerTransfer(MethodResult.Cpu cpu) {
        if (cpu == null || cpu.userMicrosPerTransfer() == null) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.1f/%.1f", cpu.userMicrosPerTransfer(), cpu.systemMicrosPerTransfer());
    }

    private static String cpu(MethodResult.Cpu cpu) {
        if (cpu == null || cpu.userSecondsPerGiB() == null) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.3f/%.3f", cpu.userSecondsPerGiB(), cpu.systemSecondsPerGiB());
    }

    static String csv(Report report) {
        StringBuilder b = new StringBuilder();
        b.append("direction,method,size,bytes,transfers,seconds,mibPerSec,mibPerSecMin,mibPerSecMax,latencyP50Ms,latencyP99Ms,"
                + "clientUserSecPerGiB,clientSysSecPerGiB,serverUserSecPerGiB,serverSysSecPerGiB,syscallsPerGiB,verified,skipped,error,"
                + "transfersPerSec,syscallsPerTransfer,relayBuffer,measuredProcess,"
                + "serverContextSwitchesPerGiB,serverContextSwitchesPerTransfer,shared,sharedWithConnections,serverThreadsPeak\n");
        for (MethodResult r : report.results()) {
            MethodResult.Row row = r.row();
            MethodResult.Throughput t = r.throughput();
            MethodResult.Latency latency = r.latencyMillis();
            b.append(String.join(",", DirectionJson.name(row.direction()), row.method(), Long.toString(row.size()), Long.toString(t.bytes()),
                    Integer.toString(t.transfers()), num(t.seconds()), num(t.mibPerSec()), num(t.mibPerSecMin()),
                    num(t.mibPerSecMax()), latency == null ? "" : num(latency.p50()), latency == null ? "" : num(latency.p99()),
                    cpuField(r.clientCpu(), MethodResult.Cpu::userSecondsPerGiB), cpuField(r.clientCpu(), MethodResult.Cpu::systemSecondsPerGiB),
                    cpuField(r.serverCpu(), MethodResult.Cpu::userSecondsPerGiB), cpuField(r.serverCpu(), MethodResult.Cpu::systemSecondsPerGiB),
                    num(r.syscallCounts().perGiB()), Boolean.toString(r.status().flat().verified()), quote(r.status().flat().skipped()), quote(r.status().flat().error()),
                    num(t.transfersPerSec()), num(r.syscallCounts().perTransfer()),
                    row.relayBuffer() == null ? "" : Integer.toString(row.relayBuffer()), row.measuredProcess(),
                    cpuField(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerGiB),
                    cpuField(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerTransfer),
                    r.sharing().shared() == null ? "" : r.sharing().shared().toString(),
                    r.sharing().sharedWithConnections() == null ? "" : r.sharing().sharedWithConnections().toString(),
                    r.serverThreadsPeak() == null ? "" : r.serverThreadsPeak().toString()));
            b.append('\n');
        }
        return b.toString();
    }

    private static String cpuField(MethodResult.Cpu cpu, Function<MethodResult.Cpu, Double> figure) {
        return cpu == null ? "" : num(figure.apply(cpu));
    }

    private static String num(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.6g", d);
    }

    private static String quote(String s) {
        return s == null ? "" : "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
