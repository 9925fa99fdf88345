package io.xferbench.client.load.report;

import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.engine.UnmeasuredErrors;
import io.xferbench.client.load.report.LoadReport.Row;
import io.xferbench.core.Sizes;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/** The load report's text table: a row per window or folded row, its columns lined up, and the legend below. */
final class LoadTable {
    private LoadTable() {
    }

    static String table(List<Row> rows) {
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
            String instead = row.skipped() != null ? "skipped: " + row.skipped() : row.noAnswer() ? LoadReport.NO_ANSWER + "every request timed "
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
            Optional<Row> ref = LoadReport.reference(row, rows);
            Repeats rep = row.repeats();
            cells.add(columns(ranges, vsBest, fewest.isPresent(), new String[] {row.server(), modelCell(row), row.client(), row.protocol(), row.operation(),
                Sizes.format(row.fileSize()), String.valueOf(row.concurrency()), LoadReport.f("%.0f", r.requestsPerSecond()),
                rep == null ? "" : String.format(Locale.ROOT, "%.0f–%.0f of %d", rep.requestsPerSecMin(), rep.requestsPerSecMax(), rep.windows()),
                LoadReport.f("%.2f", r.latency().p50()),
                LoadReport.f("%.2f", r.latency().p99()), LoadReport.f("%.2f", r.latency().p999()), LoadReport.errors(row.errorsByCause(), row.readBackOfAll()),
                LoadReport.f("%.1f", row.serverCpuMicrosPerRequest()),
                row.serverFigures() == null ? "n/a" : String.valueOf(row.serverFigures().threadsPeak()),
                row.serverReport() == null ? "n/a" : String.valueOf(row.serverReport().threadsStarted()),
                row.serverReport() == null || row.serverReport().carrierThreads() < 0 ? "n/a"
                        : String.valueOf(row.serverReport().carrierThreads()),
                LoadReport.f("%.1f", row.serverSyscallsPerRequest()), LoadReport.f("%.2f", row.serverContextSwitchesPerRequest()),
                LoadReport.f("%.1f", r.clientCpuMicrosPerRequest()), LoadReport.f("%.0f%%", r.clientBusiestLoopShare() * 100),
                ref.map(x -> LoadReport.f("%.2f×", r.requestsPerSecond() / x.result().requestsPerSecond())).orElse(""),
                ref.map(x -> LoadReport.f("%.2f×", row.serverCpuMicrosPerRequest() / x.serverCpuMicrosPerRequest())).orElse(""),
                rep == null || rep.ratioToBest() == null ? "" : LoadReport.ratio(rep.ratioToBest()),
                rep == null || rep.medianToBestMedian() == null ? "" : LoadReport.f("%.2f", rep.medianToBestMedian()),
                rep == null || rep.vsFewest() == null ? "" : LoadReport.ratio(rep.vsFewest().ratio()), outsideErrors(row.unmeasuredOfAll()),
                verifiedCell(row)}));
        }
        return align(cells, 7) + LoadLegend.of(rows);
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

    /** A cell that stands for a row's figures (it has none, or none worth showing): it may overflow the columns. */
    private static boolean insteadOfFigures(String cell) {
        return cell.startsWith("skipped: ") || cell.startsWith(LoadReport.NO_ANSWER);
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
            parts.add("warm-up " + LoadReport.errors(u.warmup(), null));
        }
        if (!u.drain().isEmpty()) {
            parts.add("drain " + LoadReport.errors(u.drain(), null));
        }
        return String.join("; ", parts);
    }
}
