package io.xferbench.client.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.client.report.Report;
import io.xferbench.client.report.RunSummary;
import io.xferbench.client.result.DirectionJson;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.NetworkPath;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.TextTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
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
                    + (network.server() == null ? "" : "; " + ResultTable.Layout.TERMINAL.side(report.results()) + " "
                    + network.server().summary()));
        }
        p.println();
        boolean first = true;
        for (ResultTable.Section section : ResultTable.of(report, ResultTable.Layout.TERMINAL)) {
            if (!first) {
                p.println();
            }
            first = false;
            if (section.heading() != null) {
                p.println(section.heading());
            }
            p.print(TextTable.aligned(section.table(), 1));
        }
        List<MethodResult> uploads = report.results().stream().filter(r -> r.uploadPhasesMillis() != null).toList();
        if (!uploads.isEmpty()) {
            p.println();
            uploadPhases(p, uploads);
        }
        if (first) {
            p.print(TextTable.aligned(ResultTable.bulk(List.of(), ResultTable.Layout.TERMINAL).table(), 1));
        }
        if (report.results().stream().anyMatch(r -> r.sharing().wasShared())) {
            p.println();
            p.println("shared: other clients' connections worked in the measured process during that row's window; its CPU, "
                    + "context switch and syscall columns include their work.");
        }
        p.flush();
        return out.toString();
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
