package io.xferbench.twin;

import io.xferbench.core.method.Direction;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.Table.Column;
import io.xferbench.core.table.TextTable;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The Java | C twin | ratio table, columns padded to their widest cell, and its footnotes. */
final class TwinTable {
    /** A Java method within this fraction of its twin counts as on par. */
    static final double TARGET = 0.90;

    private static final String[] HEAD = {"method", "Java MiB/s median [min..max]", "C twin", "C MiB/s median [min..max]", "ratio",
            "pair ratios", ">=90%?", "Java CPU ms/GiB", "C CPU ms/GiB", "Java/C csw/GiB"};

    private TwinTable() {
    }

    static void print(PrintStream out, List<TwinRow> rows) {
        print(out, rows, Direction.DOWNLOAD);
    }

    /** The CPU columns are the senders' for downloads, the receivers' for uploads. */
    static void print(PrintStream out, List<TwinRow> rows, Direction direction) {
        String versus = rows.stream().filter(r -> r.versus() != null).map(r -> r.versus().mode()).findFirst().orElse(null);
        String[] head = versus == null ? HEAD : withVersus(HEAD, "C " + versus + " MiB/s, same rounds", "Java/" + versus + " (pairs)");
        Table table = Table.of(Arrays.stream(head).map(Column::left).toList());
        for (TwinRow r : rows) {
            String[] row = cells(r);
            table.row(versus == null ? row : withVersus(row, versusCells(r)));
        }
        for (TwinRow r : rows) {
            if (!r.note().isEmpty() && r.measured()) {
                table.note("* " + r.method() + ": " + r.note() + " (both senders send the same range)");
            }
        }
        table.note("ratio = Java median / C median; pair ratios = range of Java/C within each interleaved round.");
        if (versus != null) {
            table.note("C " + versus + ": a third send in every round of the row (Java, C twin, C " + versus + "), same length;"
                    + " Java/" + versus + " = Java median / its median (range of the per-round ratios).");
        }
        String side = direction == Direction.UPLOAD ? "receiver" : "sender";
        table.note("CPU ms/GiB = " + side + " process user+sys CPU (getrusage RUSAGE_SELF, all threads) per GiB "
                + (direction == Direction.UPLOAD ? "received" : "sent") + ", median; csw = context switches (voluntary + involuntary) per GiB.");
        out.print(TextTable.piped(table));
    }

    private static String[] withVersus(String[] row, String... extra) {
        String[] all = Arrays.copyOf(row, row.length + extra.length);
        System.arraycopy(extra, 0, all, row.length, extra.length);
        return all;
    }

    private static String[] versusCells(TwinRow r) {
        if (r.versus() == null || !r.measured()) {
            return new String[] {"-", "-"};
        }
        Stats pr = Stats.of(r.versus().pairRatios());
        return new String[] {r.versus().mibPerSecond().format(), String.format(Locale.ROOT, "%.2f (%.2f..%.2f)",
                r.java().median() / r.versus().mibPerSecond().median(), pr.min(), pr.max())};
    }

    private static String[] cells(TwinRow r) {
        if (!r.measured()) {
            return new String[] {r.method(), r.note(), r.twinMode(), "-", "-", "-", "-", "-", "-", "-"};
        }
        double ratio = r.java().median() / r.c().median();
        Stats pr = Stats.of(r.pairRatios());
        String name = r.method() + (r.note().isEmpty() ? "" : " *");
        return new String[] {name, r.java().format(), r.twinMode(), r.c().format(),
                String.format(Locale.ROOT, "%.2f", ratio),
                String.format(Locale.ROOT, "%.2f..%.2f", pr.min(), pr.max()),
                ratio >= TARGET ? "yes" : "NO", r.javaCpu().format(), r.cCpu().format(),
                String.format(Locale.ROOT, "%.0f / %.0f", r.javaCpu().switches(), r.cCpu().switches())};
    }
}
