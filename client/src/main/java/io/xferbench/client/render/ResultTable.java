package io.xferbench.client.render;

import io.xferbench.client.report.Report;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A report's results as plain cells, for the Markdown and HTML reports: rows that move bytes (MiB/s, per GiB) and
 * empty-body exchanges (req/s, per request) in sections of their own, with the text table's columns.
 */
final class ResultTable {
    private ResultTable() {
    }

    /** One table under a heading. */
    record Section(String heading, Table table) {
    }

    static List<Section> of(Report report) {
        Map<String, List<MethodResult>> bulk = new LinkedHashMap<>();
        Map<String, List<MethodResult>> exchanges = new LinkedHashMap<>();
        for (MethodResult r : report.results()) {
            (r.row().size() > 0 ? bulk : exchanges).computeIfAbsent(String.valueOf(r.row().scenario()), k -> new ArrayList<>()).add(r);
        }
        List<Section> sections = new ArrayList<>();
        bulk.values().forEach(rows -> sections.add(bulk(rows)));
        exchanges.values().forEach(rows -> sections.add(exchanges(rows)));
        return sections;
    }

    private static String heading(MethodResult first, String what) {
        return first.row().scenario() == null ? what : "proxy, " + first.row().scenario().id() + ": " + what;
    }

    private static Section bulk(List<MethodResult> rows) {
        String side = rows.get(0).row().measuredProcess();
        Table table = Table.of(columns("MiB/s median [min..max]", "xfers", "p50 ms", "p99 ms",
                "client CPU s/GiB usr/sys", side + " CPU s/GiB usr/sys", side + " syscalls/GiB", side + " ctx sw/GiB",
                side + " threads peak", side + " syscalls/GiB by name"));
        for (MethodResult r : rows) {
            if (!unmeasured(r, table)) {
                MethodResult.Throughput t = r.throughput();
                table.row(List.of(r.label(), Sizes.format(r.row().size()),ReportWriter.rate(t, t.mibPerSec(), t.mibPerSecMin(), t.mibPerSecMax()),
                        Integer.toString(t.transfers()), ReportWriter.latency(r, MethodResult.Latency::p50, 1, "%.2f"),
                        ReportWriter.latency(r, MethodResult.Latency::p99, 1, "%.2f"),
                        cpu(r.clientCpu(), MethodResult.Cpu::userSecondsPerGiB, MethodResult.Cpu::systemSecondsPerGiB),
                        cpu(r.serverCpu(), MethodResult.Cpu::userSecondsPerGiB, MethodResult.Cpu::systemSecondsPerGiB),
                        whole(r.syscallCounts().perGiB()),
                        ReportWriter.switches(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerGiB, "%.0f"), ReportWriter.threadsPeak(r), verified(r), byName(r, t.bytes() / (double) Sizes.GiB)));
            }
        }
        return new Section(heading(rows.get(0), "bulk transfers"), table);
    }

    private static Section exchanges(List<MethodResult> rows) {
        String side = rows.get(0).row().measuredProcess();
        Table table = Table.of(columns("req/s median [min..max]", "reqs", "p50 us", "p99 us",
                "client CPU us/req usr/sys", side + " CPU us/req usr/sys", side + " syscalls/req", side + " ctx sw/req",
                side + " threads peak", side + " syscalls/req by name"));
        for (MethodResult r : rows) {
            if (!unmeasured(r, table)) {
                MethodResult.Throughput t = r.throughput();
                table.row(List.of(r.label(), Sizes.format(r.row().size()), t.transfersPerSec() == null ? "n/a"
                                : ReportWriter.rate(t, t.transfersPerSec(), t.transfersPerSecMin(), t.transfersPerSecMax()),
                        Integer.toString(t.transfers()), ReportWriter.latency(r, MethodResult.Latency::p50, 1000, "%.1f"),
                        ReportWriter.latency(r, MethodResult.Latency::p99, 1000, "%.1f"),
                        cpu(r.clientCpu(), MethodResult.Cpu::userMicrosPerTransfer, MethodResult.Cpu::systemMicrosPerTransfer),
                        cpu(r.serverCpu(), MethodResult.Cpu::userMicrosPerTransfer, MethodResult.Cpu::systemMicrosPerTransfer),
                        r.syscallCounts().perTransfer() == null ? "n/a" : String.format(Locale.ROOT, "%.2f", r.syscallCounts().perTransfer()),
                        ReportWriter.switches(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerTransfer, "%.2f"), ReportWriter.threadsPeak(r), verified(r),
                        byName(r, t.transfers())));
            }
        }
        return new Section(heading(rows.get(0), "empty-body exchanges"), table);
    }

    /** Method and size, the figures (right-aligned), then verified and the syscalls by name. */
    private static List<Column> columns(String... figuresThenByName) {
        List<Column> columns = new ArrayList<>(List.of(Column.left("method"), Column.left("size")));
        for (int i = 0; i < figuresThenByName.length - 1; i++) {
            columns.add(Column.right(figuresThenByName[i]));
        }
        columns.add(Column.left("verified"));
        columns.add(Column.left(figuresThenByName[figuresThenByName.length - 1]));
        return columns;
    }

    /** Adds a skipped or failed row: the reason in place of its figures; false for a measured one. */
    private static boolean unmeasured(MethodResult r, Table table) {
        List<String> named = List.of(r.label(), Sizes.format(r.row().size()));
        switch (r.status()) {
            case MethodResult.Status.Skipped s ->
                    table.spanningRow("skipped", Stream.concat(named.stream(), Stream.of("skipped: " + s.reason())).toList());
            case MethodResult.Status.Failed f ->
                    table.spanningRow("failed", Stream.concat(named.stream(), Stream.of("FAILED: " + f.cause())).toList());
            case MethodResult.Status.Measured m -> {
                return false;
            }
        }
        return true;
    }

    private static String verified(MethodResult r) {
        return (r.measured() ? "yes" : "NO") + (r.sharing().wasShared() ? " shared" : "");
    }

    /** Every syscall counted, largest first, divided by {@code per}: the one that defines a method is never cut off. */
    private static String byName(MethodResult r, double per) {
        MethodResult.Syscalls s = r.syscallCounts();
        if (s.byName() == null) {
            return "n/a: " + s.unavailable();
        }
        return s.byName().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + "=" + ReportCharts.number(e.getValue() / per)).collect(Collectors.joining(" "));
    }

    /** usr/sys of a CPU window; n/a when there is none (a merged row's server: the clients' windows overlap). */
    private static String cpu(MethodResult.Cpu cpu, java.util.function.Function<MethodResult.Cpu, Double> user,
                              java.util.function.Function<MethodResult.Cpu, Double> system) {
        return cpu == null || user.apply(cpu) == null ? "n/a" : String.format(Locale.ROOT, "%.3f/%.3f", user.apply(cpu), system.apply(cpu));
    }

    private static String whole(Double v) {
        return v == null ? "n/a" : String.format(Locale.ROOT, "%.0f", v);
    }
}
