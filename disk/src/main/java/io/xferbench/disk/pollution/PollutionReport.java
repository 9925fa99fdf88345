package io.xferbench.disk.pollution;

import io.xferbench.core.Sizes;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.Table.Column;
import io.xferbench.disk.DiskReportFormat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The environment and rows as an aligned text table, JSON ({environment, rows}), CSV (rows only) or Markdown. */
final class PollutionReport {
    /** The mode and the last column are text, the rest figures. */
    private static final List<Column> COLUMNS = List.of(Column.left("mode"), Column.right("big MiB/s"),
            Column.right("passes"), Column.right("verified"), Column.right("hot resident % b/d/a"),
            Column.right("hot % at read end mincore/vmtouch"), Column.right("hot req/s b/d/a"),
            Column.right("hot p99 ms b/d/a"), Column.right("hot requests b/d/a"), Column.right("recover s"),
            Column.right("dev reads during"), Column.right("dev MiB during"), Column.right("dev reads after"),
            Column.right("big cached %"), Column.right("cgroup"), Column.right("cgroup peak"), Column.left("skipped"));

    private PollutionReport() {
    }

    static String format(Map<String, String> environment, List<PollutionRow> rows, String format) throws IOException {
        return DiskReportFormat.render(format, environment, rows, table(rows), flat(rows));
    }

    private static Table table(List<PollutionRow> rows) {
        Table t = Table.of(COLUMNS);
        rows.forEach(r -> t.row(cells(r)));
        thinNote(rows).ifPresent(t::note);
        return t;
    }

    private static String[] cells(PollutionRow r) {
        if (r.skipped() != null) {
            String[] c = new String[COLUMNS.size()];
            Arrays.fill(c, "-");
            c[0] = r.mode();
            c[COLUMNS.size() - 3] = Sizes.format(r.cgroupLimit());
            c[COLUMNS.size() - 1] = r.skipped();
            return c;
        }
        return new String[] {r.mode(), num(r.bigMiBPerSec()), Integer.toString(r.bigPasses()),
                r.bigVerified() ? "yes" : "NO",
                triple(r.hotResidencyBefore(), r.hotResidencyDuring(), r.hotResidencyAfter()),
                String.format(Locale.ROOT, "%.1f / %s", r.hotResidencyEndOfRead(), r.hotResidencyVmtouch() == null
                        ? "-" : String.format(Locale.ROOT, "%.1f", r.hotResidencyVmtouch())),
                triple(r.hotReqPerSecBefore(), r.hotReqPerSecDuring(), r.hotReqPerSecAfter()),
                ThinPercentile.p99Cell(r.hotP99MsBefore(), r.hotRequestsBefore()) + " / "
                        + ThinPercentile.p99Cell(r.hotP99MsDuring(), r.hotRequestsDuring()) + " / "
                        + ThinPercentile.p99Cell(r.hotP99MsAfter(), r.hotRequestsAfter()),
                r.hotRequestsBefore() + " / " + r.hotRequestsDuring() + " / " + r.hotRequestsAfter(),
                r.recoverySeconds() == null ? ">" + num(r.recoverCapSeconds())
                        : String.format(Locale.ROOT, "%.2f", r.recoverySeconds()),
                Long.toString(r.deviceReadsDuring()), Long.toString(r.deviceMiBDuring()),
                Long.toString(r.deviceReadsAfter()), num(r.bigResidencyAfter()), Sizes.format(r.cgroupLimit()),
                r.cgroupPeak() == null ? "-" : Sizes.format(r.cgroupPeak() / Sizes.MiB * Sizes.MiB),
                r.hotErrors() > 0 ? r.hotErrors() + " hot request errors" : ""};
    }

    /** The footnote of a starred p99, where any row has one. */
    private static Optional<String> thinNote(List<PollutionRow> rows) {
        boolean any = rows.stream().anyMatch(r -> r.skipped() == null && !r.hotP99Thin().isEmpty());
        return any ? Optional.of("* p99 of a window with fewer than " + ThinPercentile.MIN_BEYOND * 100 + " hot requests: "
                + "fewer than " + ThinPercentile.MIN_BEYOND + " lie beyond it, so it is little more than its slowest request")
                : Optional.empty();
    }

    private static String triple(double before, double during, double after) {
        return num(before) + " / " + num(during) + " / " + num(after);
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /** Flat columns, the JSON field names, one row per mode. */
    private static Table flat(List<PollutionRow> rows) {
        var components = PollutionRow.class.getRecordComponents();
        Table t = Table.of(Arrays.stream(components).map(c -> Column.left(c.getName())).toList());
        for (PollutionRow r : rows) {
            List<String> cells = new ArrayList<>();
            for (var component : components) {
                try {
                    Object v = component.getAccessor().invoke(r);
                    cells.add(v == null ? "" : v.toString());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            t.row(cells);
        }
        return t;
    }
}
