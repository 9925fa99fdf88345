package io.xferbench.disk;

import io.xferbench.core.Sizes;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.Table.Column;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows as an aligned text table, JSON ({environment, rows}), CSV (rows only) or a Markdown table; the table and
 * Markdown start with the environment ({@link DiskEnvironment}), one line per entry.
 */
final class DiskTable {
    /** The first three columns and the last are text, the rest figures. */
    private static final List<Column> COLUMNS = List.of(Column.left("tool"), Column.left("engine"), Column.left("pattern"),
            Column.right("block"), Column.right("qd"), Column.right("direct"), Column.right("cache"), Column.right("span"),
            Column.right("cgroup"), Column.right("MiB/s"), Column.right("IOPS"), Column.right("p50 us"),
            Column.right("p99 us"), Column.right("csw/GiB"), Column.right("cpu s/GiB"), Column.right("sys/op"),
            Column.right("dev reads"), Column.right("dev MiB"), Column.right("dev us/read"), Column.right("verified"),
            Column.right("warm-up"), Column.right("java/fio"), Column.left("skipped"));

    private DiskTable() {
    }

    static String format(Map<String, String> environment, List<DiskRow> rows, String format) throws IOException {
        return format(environment, null, rows, format);
    }

    /** The same with the run's typed settings in the JSON ({@code null}: none). */
    static String format(Map<String, String> environment, DiskSettings settings, List<DiskRow> rows, String format)
            throws IOException {
        Table table = table(rows);
        return DiskReportFormat.render(format, environment, settings, rows, table, table);
    }

    private static Table table(List<DiskRow> rows) {
        Table t = Table.of(COLUMNS);
        rows.forEach(r -> t.row(cells(r)));
        return t;
    }

    /** First and last index of the measured columns: a skipped row shows "-" there, never a measured-looking 0. */
    private static final int FIRST_MEASURED = 9;
    private static final int LAST_MEASURED = 18;

    private static String[] cells(DiskRow r) {
        String[] c = measuredCells(r);
        if (r.skipped() != null) {
            Arrays.fill(c, FIRST_MEASURED, LAST_MEASURED + 1, "-");
        }
        return c;
    }

    private static String[] measuredCells(DiskRow r) {
        return new String[] {r.tool(), r.engine(), r.pattern(), Sizes.format(r.blockSize()),
                Integer.toString(r.queueDepth()), r.direct() ? "yes" : "no", r.cache(), Sizes.format(r.span()),
                r.cgroupLimit() == 0 ? "-" : Sizes.format(r.cgroupLimit()), num(r.mibPerSec()), num(r.iops()),
                num(r.p50Micros()), num(r.p99Micros()), num(r.contextSwitchesPerGiB()), dec(r.cpuSecondsPerGiB()),
                r.syscallsPerOp() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.syscallsPerOp()),
                Long.toString(r.deviceReads()), Long.toString(r.deviceMiB()), num(r.deviceMicrosPerRead()),
                r.verified() == null ? "-" : r.verified() ? "yes" : "NO",
                warmUp(r),
                ratio(r),
                r.skipped() == null ? "" : r.skipped()};
    }

    /** How long the engine ran untimed first; {@code unsettled} when the row began before the JIT was seen quiet. */
    private static String warmUp(DiskRow r) {
        if (r.warmUpSeconds() == null) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.1f s", r.warmUpSeconds())
                + (Boolean.TRUE.equals(r.jitSettled()) ? "" : ", unsettled");
    }

    /** The ratio; with repeats, the range of the pairs' ratios and their number, e.g. {@code 0.92 (0.70–1.14 of 3)}. */
    private static String ratio(DiskRow r) {
        if (r.ratio() == null) {
            return "-";
        }
        String shown = String.format(Locale.ROOT, "%.2f", r.ratio());
        return r.repeats() <= 1 || r.ratioMin() == null ? shown
                : String.format(Locale.ROOT, "%s (%.2f–%.2f of %d)", shown, r.ratioMin(), r.ratioMax(), r.repeats());
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String dec(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
