package io.xferbench.client;

import io.xferbench.core.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A report's results as plain cells, for the Markdown and HTML reports: rows that move bytes (MiB/s, per GiB) and
 * empty-body exchanges (req/s, per request) in sections of their own, with the text table's columns.
 */
final class ResultTable {
    private ResultTable() {
    }

    /** One table: a heading (may be empty), column names and rows of cells. */
    record Section(String heading, List<String> columns, List<List<String>> rows) {
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
        List<String> columns = List.of("method", "size", "MiB/s median [min..max]", "xfers", "p50 ms", "p99 ms",
                "client CPU s/GiB usr/sys", side + " CPU s/GiB usr/sys", side + " syscalls/GiB", side + " ctx sw/GiB", side + " threads peak", "verified", side + " syscalls/GiB by name");
        List<List<String>> cells = new ArrayList<>();
        for (MethodResult r : rows) {
            List<String> row = new ArrayList<>(List.of(r.label(), Sizes.format(r.row().size())));
            if (!unmeasured(r, row, columns.size())) {
                MethodResult.Throughput t = r.throughput();
                row.addAll(List.of(ReportWriter.rate(t, t.mibPerSec(), t.mibPerSecMin(), t.mibPerSecMax()),
                        Integer.toString(t.transfers()), ReportWriter.latency(r, MethodResult.Latency::p50, 1, "%.2f"),
                        ReportWriter.latency(r, MethodResult.Latency::p99, 1, "%.2f"),
                        cpu(r.clientCpu(), MethodResult.Cpu::userSecondsPerGiB, MethodResult.Cpu::systemSecondsPerGiB),
                        cpu(r.serverCpu(), MethodResult.Cpu::userSecondsPerGiB, MethodResult.Cpu::systemSecondsPerGiB),
                        whole(r.syscallCounts().perGiB()),
                        ReportWriter.switches(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerGiB, "%.0f"), ReportWriter.threadsPeak(r), verified(r), byName(r, t.bytes() / (double) Sizes.GiB)));
            }
            cells.add(row);
        }
        return new Section(heading(rows.get(0), "bulk transfers"), columns, cells);
    }

    private static Section exchanges(List<MethodResult> rows) {
        String side = rows.get(0).row().measuredProcess();
        List<String> columns = List.of("method", "size", "req/s median [min..max]", "reqs", "p50 us", "p99 us",
                "client CPU us/req usr/sys", side + " CPU us/req usr/sys", side + " syscalls/req", side + " ctx sw/req", side + " threads peak", "verified", side + " syscalls/req by name");
        List<List<String>> cells = new ArrayList<>();
        for (MethodResult r : rows) {
            List<String> row = new ArrayList<>(List.of(r.label(), Sizes.format(r.row().size())));
            if (!unmeasured(r, row, columns.size())) {
                MethodResult.Throughput t = r.throughput();
                row.addAll(List.of(t.transfersPerSec() == null ? "n/a"
                                : ReportWriter.rate(t, t.transfersPerSec(), t.transfersPerSecMin(), t.transfersPerSecMax()),
                        Integer.toString(t.transfers()), ReportWriter.latency(r, MethodResult.Latency::p50, 1000, "%.1f"),
                        ReportWriter.latency(r, MethodResult.Latency::p99, 1000, "%.1f"),
                        cpu(r.clientCpu(), MethodResult.Cpu::userMicrosPerTransfer, MethodResult.Cpu::systemMicrosPerTransfer),
                        cpu(r.serverCpu(), MethodResult.Cpu::userMicrosPerTransfer, MethodResult.Cpu::systemMicrosPerTransfer),
                        r.syscallCounts().perTransfer() == null ? "n/a" : String.format(Locale.ROOT, "%.2f", r.syscallCounts().perTransfer()),
                        ReportWriter.switches(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerTransfer, "%.2f"), ReportWriter.threadsPeak(r), verified(r),
                        byName(r, t.transfers())));
            }
            cells.add(row);
        }
        return new Section(heading(rows.get(0), "empty-body exchanges"), columns, cells);
    }

    /** Fills a skipped or failed row: the reason in the first number column, the rest empty. */
    private static boolean unmeasured(MethodResult r, List<String> row, int width) {
        String why = r.skipped() != null ? "skipped: " + r.skipped() : r.error() != null ? "FAILED: " + r.error() : null;
        if (why == null) {
            return false;
        }
        row.add(why);
        while (row.size() < width) {
            row.add("");
        }
        return true;
    }

    private static String verified(MethodResult r) {
        return (r.verified() ? "yes" : "NO") + (r.sharing().wasShared() ? " shared" : "");
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
