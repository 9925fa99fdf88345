package io.xferbench.client;

import io.xferbench.core.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/** Prints a {@link RunComparison} as an aligned text table or Markdown, with the rows found in one run only. */
final class ComparisonWriter {
    private static final List<String> COLUMNS = List.of("direction", "method", "size", "A median [min..max]", "B median [min..max]",
            "change", "ranges");

    private ComparisonWriter() {
    }

    static String table(RunComparison c, String a, String b) {
        StringBuilder out = new StringBuilder("A: " + a + "\nB: " + b + "\nMiB/s (req/s for empty-body rows); change = (B - A) / A"
                + " of the medians; 'overlap' = the min..max ranges share values, the change is within the runs' spread\n\n");
        List<List<String>> rows = new ArrayList<>();
        rows.add(COLUMNS);
        rows.addAll(rows(c));
        int[] width = new int[COLUMNS.size()];
        for (List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        for (List<String> r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.size(); i++) {
                line.append(String.format(Locale.ROOT, "%-" + width[i] + "s", r.get(i))).append(i + 1 < r.size() ? "  " : "");
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        only(out, "only in A: ", c.onlyA());
        only(out, "only in B: ", c.onlyB());
        notes(out, "", c, text -> text);
        return out.toString();
    }

    static String markdown(RunComparison c, String a, String b) {
        StringBuilder out = new StringBuilder("# xferbench comparison\n\n- A: " + MarkdownReport.escape(a) + "\n- B: "
                + MarkdownReport.escape(b) + "\n- MiB/s (req/s for empty-body rows); change = (B - A) / A of the medians; "
                + "*overlap*: the min..max ranges share values, the change is within the runs' spread\n\n");
        MarkdownReport.table(out, COLUMNS, rows(c));
        out.append('\n');
        only(out, "- only in A: ", c.onlyA());
        only(out, "- only in B: ", c.onlyB());
        notes(out, "- ", c, MarkdownReport::escape);
        return out.toString();
    }

    private static List<List<String>> rows(RunComparison c) {
        List<List<String>> rows = new ArrayList<>();
        for (RunComparison.Pair p : c.pairs()) {
            Double delta = p.deltaPercent();
            Boolean overlap = p.rangesOverlap();
            rows.add(List.of(DirectionJson.name(p.a().row().direction()) + (p.a().row().scenario() == null ? "" : " " + p.a().row().scenario().id()),
                    p.a().label(), Sizes.format(p.a().row().size()), rate(p.a()), rate(p.b()),
                    delta == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", delta),
                    overlap == null ? (delta == null ? "-" : "no range") : overlap ? "overlap" : "apart"));
        }
        return rows;
    }

    private static String rate(MethodResult r) {
        if (r.skipped() != null) {
            return "skipped";
        }
        if (r.error() != null) {
            return "FAILED";
        }
        RunComparison.Range range = RunComparison.Range.of(r);
        return range == null ? "n/a" : r.throughput().single() ? ReportCharts.number(range.median()) + " (no range)"
                : ReportCharts.number(range.median()) + " [" + ReportCharts.number(range.min()) + ".." + ReportCharts.number(range.max()) + "]";
    }

    private static void only(StringBuilder out, String prefix, List<MethodResult> rows) {
        if (!rows.isEmpty()) {
            out.append(prefix).append(String.join(", ", rows.stream().map(RowName::of).toList())).append('\n');
        }
    }

    /** What the change may owe to something other than the code or machine, and how repeated rows were matched. */
    private static void notes(StringBuilder out, String bullet, RunComparison c, UnaryOperator<String> escape) {
        for (SettingsDifference d : c.settings()) {
            out.append(bullet).append("settings differ, ").append(escape.apply(d.describe())).append('\n');
        }
        for (EnvironmentDifference d : c.machines()) {
            out.append(bullet).append("environment differs, ").append(escape.apply(d.describe())).append('\n');
        }
        if (!c.repeated().isEmpty()) {
            out.append(bullet).append("repeated rows, paired in order (first of A with first of B, ...): ")
                    .append(escape.apply(String.join(", ", c.repeated().stream().map(RowName::of).toList()))).append('\n');
        }
    }
}
