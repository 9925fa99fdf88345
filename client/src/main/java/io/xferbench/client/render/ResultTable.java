package io.xferbench.client.render;

import io.xferbench.client.report.Report;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A report's results as {@link Table}s, mapped once for every format: rows that move bytes (MiB/s, per GiB) first,
 * then empty-body exchanges (req/s, per request), proxy rows one section per scenario. What differs between the
 * terminal and a document (Markdown, HTML) is a {@link Layout}: headers, the precision of CPU per request, and how
 * many syscalls a cell names.
 */
final class ResultTable {
    private ResultTable() {
    }

    /**
     * One table; {@code heading} says what its rows are (for the terminal only a proxy scenario's rows have one:
     * null otherwise).
     */
    record Section(String heading, Table table) {
    }

    /** The layouts of the two format families. */
    enum Layout {
        /** The text table: narrow stacked headers, widths that line sections up, the largest syscalls only. */
        TERMINAL,
        /** Markdown and HTML: one-line headers, every syscall by name. */
        DOCUMENT;

        /** Whose CPU and syscalls the far-side columns are. */
        String side(List<MethodResult> rows) {
            if (this == DOCUMENT) {
                return rows.get(0).row().measuredProcess();
            }
            return !rows.isEmpty() && rows.stream().allMatch(r -> r.row().direction() == Direction.RELAY) ? "proxy" : "server";
        }

        String heading(MethodResult.Scenario scenario, String what) {
            if (this == DOCUMENT) {
                return scenario == null ? what : "proxy, " + scenario.id() + ": " + what;
            }
            return scenario == null ? null : switch (scenario) {
                case SMALL -> "proxy, small: empty-body exchanges (0-byte downloads) on kept-alive connections";
                case CONNECT -> "proxy, connect: a new connection per empty-body exchange (connect, PROXY frame, exchange, close)";
                case BULK -> "proxy, bulk: bodies downloaded through the proxy on kept-alive connections";
            };
        }

        List<Column> bulkColumns(String side) {
            return this == TERMINAL
                    ? terminalColumns(side, "MiB/s median [min..max]", 5, "xfers", "p50 ms", "p99 ms", "CPU s/GiB",
                            "syscalls/GiB", "ctx sw/GiB", "syscalls/GiB by name")
                    : documentColumns("MiB/s median [min..max]", "xfers", "p50 ms", "p99 ms", "client CPU s/GiB usr/sys",
                            side + " CPU s/GiB usr/sys", side + " syscalls/GiB", side + " ctx sw/GiB", side + " threads peak",
                            side + " syscalls/GiB by name");
        }

        List<Column> exchangeColumns(String side) {
            return this == TERMINAL
                    ? terminalColumns(side, "req/s median [min..max]", 7, "reqs", "p50 us", "p99 us", "CPU us/req",
                            "syscalls/req", "ctx sw/req", "syscalls/req by name")
                    : documentColumns("req/s median [min..max]", "reqs", "p50 us", "p99 us", "client CPU us/req usr/sys",
                            side + " CPU us/req usr/sys", side + " syscalls/req", side + " ctx sw/req", side + " threads peak",
                            side + " syscalls/req by name");
        }

        /** usr/sys per request: a tenth of a µs on the terminal, thousandths in a document. */
        String cpuPerRequest(MethodResult.Cpu cpu) {
            return ResultTable.cpu(cpu, MethodResult.Cpu::userMicrosPerTransfer, MethodResult.Cpu::systemMicrosPerTransfer,
                    this == TERMINAL ? "%.1f/%.1f" : "%.3f/%.3f");
        }

        /** Syscalls by name per {@code per}: the terminal's largest and defining ones, or a document's every one. */
        String byName(MethodResult r, double per, String terminalFormat) {
            return this == TERMINAL ? MethodSyscalls.cell(r, per, terminalFormat) : everySyscall(r, per);
        }
    }

    static List<Section> of(Report report, Layout layout) {
        Map<String, List<MethodResult>> bulk = new LinkedHashMap<>();
        Map<String, List<MethodResult>> exchanges = new LinkedHashMap<>();
        for (MethodResult r : report.results()) {
            (r.row().size() > 0 ? bulk : exchanges).computeIfAbsent(String.valueOf(r.row().scenario()), k -> new ArrayList<>()).add(r);
        }
        List<Section> sections = new ArrayList<>();
        bulk.values().forEach(rows -> sections.add(bulk(rows, layout)));
        exchanges.values().forEach(rows -> sections.add(exchanges(rows, layout)));
        return sections;
    }

    /** Rows that move bytes: MiB/s, latency in ms, CPU and syscalls per GiB. */
    static Section bulk(List<MethodResult> rows, Layout layout) {
        Table table = Table.of(layout.bulkColumns(layout.side(rows)));
        for (MethodResult r : rows) {
            if (!unmeasured(r, table)) {
                MethodResult.Throughput t = r.throughput();
                table.row(r.label(), Sizes.format(r.row().size()), rate(t, t.mibPerSec(), t.mibPerSecMin(), t.mibPerSecMax()),
                        Integer.toString(t.transfers()), latency(r, MethodResult.Latency::p50, 1, "%.2f"),
                        latency(r, MethodResult.Latency::p99, 1, "%.2f"),
                        cpu(r.clientCpu(), MethodResult.Cpu::userSecondsPerGiB, MethodResult.Cpu::systemSecondsPerGiB, "%.3f/%.3f"),
                        cpu(r.serverCpu(), MethodResult.Cpu::userSecondsPerGiB, MethodResult.Cpu::systemSecondsPerGiB, "%.3f/%.3f"),
                        figure(r.syscallCounts().perGiB(), "%.0f"),
                        switches(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerGiB, "%.0f"), threadsPeak(r), verified(r),
                        layout.byName(r, t.bytes() / (double) Sizes.GiB, "%.0f"));
            }
        }
        return new Section(layout.heading(scenario(rows), "bulk transfers"), table);
    }

    /** Empty-body request/response rows: req/s, latency in µs, CPU µs and syscalls per request. */
    static Section exchanges(List<MethodResult> rows, Layout layout) {
        Table table = Table.of(layout.exchangeColumns(layout.side(rows)));
        for (MethodResult r : rows) {
            if (!unmeasured(r, table)) {
                MethodResult.Throughput t = r.throughput();
                table.row(r.label(), Sizes.format(r.row().size()), t.transfersPerSec() == null ? "n/a"
                                : rate(t, t.transfersPerSec(), t.transfersPerSecMin(), t.transfersPerSecMax()),
                        Integer.toString(t.transfers()), latency(r, MethodResult.Latency::p50, 1000, "%.1f"),
                        latency(r, MethodResult.Latency::p99, 1000, "%.1f"),
                        layout.cpuPerRequest(r.clientCpu()), layout.cpuPerRequest(r.serverCpu()),
                        figure(r.syscallCounts().perTransfer(), "%.2f"),
                        switches(r.serverCpu(), MethodResult.Cpu::contextSwitchesPerTransfer, "%.2f"), threadsPeak(r), verified(r),
                        layout.byName(r, t.transfers(), "%.2f"));
            }
        }
        return new Section(layout.heading(scenario(rows), "empty-body exchanges"), table);
    }

    private static MethodResult.Scenario scenario(List<MethodResult> rows) {
        return rows.isEmpty() ? null : rows.get(0).row().scenario();
    }

    /**
     * The terminal's columns, separated by one space (two before verified); the minimum widths keep a section's
     * columns where the others' are.
     */
    private static List<Column> terminalColumns(String side, String rate, int countWidth, String count, String p50, String p99,
                                                String cpuUnit, String syscalls, String switches, String byName) {
        return List.of(Column.left("method").atLeast(15), Column.left("size").atLeast(9), Column.left(rate).atLeast(24),
                Column.right(count).atLeast(countWidth), Column.right(p50).atLeast(8), Column.right(p99).atLeast(8),
                Column.right("client usr/sys\n" + cpuUnit).atLeast(15), Column.right(side + " usr/sys\n" + cpuUnit).atLeast(15),
                Column.right(syscalls).atLeast(12), Column.right(switches + "\n" + side).atLeast(11),
                Column.right("threads\npeak").atLeast(8), Column.left("verified").atLeast(10).setApart(), Column.left(side + " " + byName));
    }

    /** A document's columns: method and size, the figures (right-aligned), then verified and the syscalls by name. */
    private static List<Column> documentColumns(String... figuresThenByName) {
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
    private static String threadsPeak(MethodResult r) {
        return r.serverThreadsPeak() == null ? "n/a" : r.serverThreadsPeak().toString();
    }

    /** Context switches of the measured process per GiB or per request; "n/a" when not counted. */
    private static String switches(MethodResult.Cpu cpu, Function<MethodResult.Cpu, Double> figure, String format) {
        return figure(cpu == null ? null : figure.apply(cpu), format);
    }

    /** A latency percentile times {@code scale}; n/a for rows without one (merged clients' rows: percentiles do not add). */
    private static String latency(MethodResult r, java.util.function.ToDoubleFunction<MethodResult.Latency> percentile,
                                  double scale, String format) {
        return r.latencyMillis() == null ? "n/a" : String.format(Locale.ROOT, format, percentile.applyAsDouble(r.latencyMillis()) * scale);
    }

    /** usr/sys of a CPU window; n/a when there is none (a merged row's server: the clients' windows overlap). */
    private static String cpu(MethodResult.Cpu cpu, Function<MethodResult.Cpu, Double> user,
                              Function<MethodResult.Cpu, Double> system, String format) {
        return cpu == null || user.apply(cpu) == null ? "n/a" : String.format(Locale.ROOT, format, user.apply(cpu), system.apply(cpu));
    }

    private static String figure(Double v, String format) {
        return v == null ? "n/a" : String.format(Locale.ROOT, format, v);
    }

    /** Every syscall counted, largest first, divided by {@code per}: the one that defines a method is never cut off. */
    private static String everySyscall(MethodResult r, double per) {
        MethodResult.Syscalls s = r.syscallCounts();
        if (s.byName() == null) {
            return "n/a: " + s.unavailable();
        }
        return s.byName().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> e.getKey() + "=" + ReportCharts.number(e.getValue() / per)).collect(Collectors.joining(" "));
    }
}
