package io.xferbench.client.compare;

import io.xferbench.client.render.ReportCharts;
import io.xferbench.client.report.SettingsDifference;
import io.xferbench.client.result.DirectionJson;
import io.xferbench.client.result.MethodResult;
import io.xferbench.client.result.RowName;
import io.xferbench.core.Sizes;
import io.xferbench.core.table.MarkdownTable;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.TextTable;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/** Prints a {@link RunComparison} as an aligned text table or Markdown, with the rows found in one run only. */
public final class ComparisonWriter {
    private static final List<Column> COLUMNS = Stream.of("direction", "method", "size", "A median [min..max]",
            "B median [min..max]", "change", "ranges").map(Column::left).toList();

    private ComparisonWriter() {
    }

    public static String table(RunComparison c, String a, String b) {
        StringBuilder out = new StringBuilder("A: " + a + "\nB: " + b + "\nMiB/s (req/s for empty-body rows); change = (B - A) / A"
                + " of the medians; 'overlap' = the min..max ranges share values, the change is within the runs' spread\n\n");
        out.append(TextTable.aligned(table(c)));
        only(out, "only in A: ", c.onlyA());
        only(out, "only in B: ", c.onlyB());
        notes(out, "", c, text -> text);
        return out.toString();
    }

    public static String markdown(RunComparison c, String a, String b) {
        StringBuilder out = new StringBuilder("# xferbench comparison\n\n- A: " + MarkdownTable.escape(a) + "\n- B: "
                + MarkdownTable.escape(b) + "\n- MiB/s (req/s for empty-body rows); change = (B - A) / A of the medians; "
                + "*overlap*: the min..max ranges share values, the change is within the runs' spread\n\n");
        out.append(MarkdownTable.table(table(c)));
        out.append('\n');
        only(out, "- only in A: ", c.onlyA());
        only(out, "- only in B: ", c.onlyB());
        notes(out, "- ", c, MarkdownTable::escape);
        return out.toString();
    }

    private static Table table(RunComparison c) {
        Table rows = Table.of(COLUMNS);
        for (RunComparison.Pair p : c.pairs()) {
            Double delta = p.deltaPercent();
            Boolean overlap = p.rangesOverlap();
            rows.row(DirectionJson.name(p.a().row().direction()) + (p.a().row().scenario() == null ? "" : " " + p.a().row().scenario().id()),
                    p.a().label(), Sizes.format(p.a().row().size()), rate(p.a()), rate(p.b()),
                    delta == null ? "-" : String.format(Locale.ROOT, "%+.1f%%", delta),
                    overlap == null ? (delta == null ? "-" : "no range") : overlap ? "overlap" : "apart");
        }
        return rows;
    }

    private static String rate(MethodResult r) {
        switch (r.status()) {
            case MethodResult.Status.Skipped s -> {
                return "skipped";
            }
            case MethodResult.Status.Failed f -> {
                return "FAILED";
            }
            case MethodResult.Status.Measured m -> {
            }
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
