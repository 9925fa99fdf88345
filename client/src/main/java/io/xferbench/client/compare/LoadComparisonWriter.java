package io.xferbench.client.compare;

import io.xferbench.client.report.SettingsDifference;
import io.xferbench.core.Sizes;
import io.xferbench.core.table.MarkdownTable;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/** Prints a {@link LoadComparison} as an aligned text table or Markdown, then what the runs differ in besides the code. */
public final class LoadComparisonWriter {
    private LoadComparisonWriter() {
    }

    public static String table(LoadComparison c, String a, String b) {
        StringBuilder out = new StringBuilder("A: " + a + "\nB: " + b + "\n" + what(c) + "\n\n");
        out.append(TextTable.aligned(table(c)));
        notes(out, "", c, text -> text);
        return out.toString();
    }

    public static String markdown(LoadComparison c, String a, String b) {
        StringBuilder out = new StringBuilder("# xferbench load comparison\n\n- A: " + MarkdownTable.escape(a) + "\n- B: "
                + MarkdownTable.escape(b) + "\n- " + MarkdownTable.escape(what(c)) + "\n\n");
        out.append(MarkdownTable.table(table(c))).append('\n');
        notes(out, "- ", c, MarkdownTable::escape);
        return out.toString();
    }

    /** The header line: what the rate columns hold, so a ratio is not read as requests/s. */
    private static String what(LoadComparison c) {
        String rate = c.reference() == null ? "requests/s: median [min..max] over the rounds"
                : "requests/s relative to " + c.reference().name() + ": each round's requests/s over that row's in the same round of"
                + " the same run, median [min..max] of those ratios";
        return rate + "; change = (B - A) / A of the medians; 'overlap' = the min..max ranges share values, the change is within"
                + " the runs' spread; p99 latency (ms) and server CPU (µs per request) are the median round's";
    }

    private static Table table(LoadComparison c) {
        String unit = c.reference() == null ? "req/s" : "req/s ratio";
        List<Column> columns = new ArrayList<>();
        for (String h : List.of("server", "model", "client", "proto", "op", "file", "conns")) {
            columns.add(Column.left(h));
        }
        for (String h : List.of("A " + unit + " median [min..max]", "B " + unit + " median [min..max]", "change")) {
            columns.add(Column.right(h));
        }
        columns.add(Column.left("ranges"));
        for (String h : List.of("A p99 ms", "B p99 ms", "p99 change", "A srv µs/req", "B srv µs/req", "srv µs/req change")) {
            columns.add(Column.right(h));
        }
        Table rows = Table.of(columns);
        String pattern = c.reference() == null ? "%.0f" : "%.3f";
        for (LoadComparison.Pair p : c.pairs()) {
            LoadRow r = p.a();
            Double delta = p.deltaPercent();
            Boolean overlap = p.rangesOverlap();
            rows.row(r.server(), r.model(), r.client(), r.protocol(), r.operation(), Sizes.format(r.fileSizeBytes()),
                    String.valueOf(r.concurrency()), rate(p.a(), p.rateA(), pattern), rate(p.b(), p.rateB(), pattern), percent(delta),
                    r == c.reference() ? "reference" : overlap == null ? (delta == null ? "-" : "no range") : overlap ? "overlap" : "apart",
                    figure(p.a(), p.a().latencyP99Millis(), "%.2f"), figure(p.b(), p.b().latencyP99Millis(), "%.2f"),
                    percent(p.p99ChangePercent()), figure(p.a(), p.a().serverCpuMicrosPerRequest(), "%.1f"),
                    figure(p.b(), p.b().serverCpuMicrosPerRequest(), "%.1f"), percent(p.serverCpuChangePercent()));
        }
        return rows;
    }

    /** {@code 73265 [67867..79216]}; one round's figure says it has no range; a row without figures says why. */
    private static String rate(LoadRow row, RunComparison.Range range, String pattern) {
        if (!row.measured()) {
            return unmeasured(row);
        }
        if (range == null) {
            return "n/a";
        }
        String median = String.format(Locale.ROOT, pattern, range.median());
        return row.rounds().size() < 2 ? median + " (no range)"
                : median + " [" + String.format(Locale.ROOT, pattern, range.min()) + ".." + String.format(Locale.ROOT, pattern, range.max()) + "]";
    }

    private static String figure(LoadRow row, Double value, String pattern) {
        return !row.measured() ? unmeasured(row) : value == null ? "n/a" : String.format(Locale.ROOT, pattern, value);
    }

    private static String unmeasured(LoadRow row) {
        return row.skipped() != null ? "skipped" : row.noAnswer() != null ? "no answer" : "n/a";
    }

    private static String percent(Double change) {
        return change == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", change);
    }

    /** Rows in one run only, rows that ran another method or failed verification, and what else differs. */
    private static void notes(StringBuilder out, String bullet, LoadComparison c, UnaryOperator<String> escape) {
        list(out, bullet + "only in A: ", c.onlyA(), escape);
        list(out, bullet + "only in B: ", c.onlyB(), escape);
        for (LoadComparison.Pair p : c.pairs()) {
            if (p.methodRunDiffers()) {
                out.append(bullet).append(escape.apply("methodRun differs, " + p.a().name() + ": " + p.a().methodRun() + " vs "
                        + p.b().methodRun())).append('\n');
            }
        }
        list(out, bullet + "not verified in A: ", c.pairs().stream().map(LoadComparison.Pair::a).filter(LoadComparisonWriter::unverified).toList(), escape);
        list(out, bullet + "not verified in B: ", c.pairs().stream().map(LoadComparison.Pair::b).filter(LoadComparisonWriter::unverified).toList(), escape);
        for (SettingsDifference d : c.settings()) {
            out.append(bullet).append("settings differ, ").append(escape.apply(d.describe())).append('\n');
        }
        for (EnvironmentDifference d : c.machines()) {
            out.append(bullet).append("environment differs, ").append(escape.apply(d.describe())).append('\n');
        }
    }

    private static boolean unverified(LoadRow r) {
        return r.measured() && Boolean.FALSE.equals(r.verified());
    }

    private static void list(StringBuilder out, String prefix, List<LoadRow> rows, UnaryOperator<String> escape) {
        if (!rows.isEmpty()) {
            out.append(prefix).append(escape.apply(String.join("; ", rows.stream().map(LoadRow::name).toList()))).append('\n');
        }
    }
}
