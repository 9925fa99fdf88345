package io.xferbench.core.table;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Table} as text for a terminal: every column padded to its widest cell. {@link #aligned} separates columns
 * by spaces (two unless told) and says its preamble as {@code #} comment lines; {@link #piped} draws Markdown's pipes
 * and rule, so the text pastes into docs as is. A spanning row's last cell is written as is and widens no column; a
 * header's lines are stacked.
 */
public final class TextTable {
    private TextTable() {
    }

    public static String aligned(Table t) {
        return aligned(t, 2);
    }

    public static String aligned(Table t, int gap) {
        int[] width = widths(t);
        String space = " ".repeat(gap);
        StringBuilder sb = new StringBuilder();
        t.preamble().forEach(line -> sb.append("# ").append(line).append('\n'));
        for (List<String> header : headerLines(t)) {
            alignedLine(sb, t, header, false, width, space);
        }
        for (Table.Row row : t.rows()) {
            alignedLine(sb, t, row.cells(), row.spans(), width, space);
        }
        return notes(sb, t);
    }

    public static String piped(Table t) {
        int[] width = widths(t);
        StringBuilder sb = new StringBuilder();
        t.preamble().forEach(line -> sb.append("# ").append(line).append('\n'));
        for (List<String> header : headerLines(t)) {
            pipedLine(sb, t, header, false, width);
        }
        sb.append('|');
        for (int i = 0; i < width.length; i++) {
            boolean right = t.columns().get(i).align() == Table.Align.RIGHT;
            sb.append("-".repeat(width[i] + (right ? 1 : 2))).append(right ? ":|" : "|");
        }
        sb.append('\n');
        for (Table.Row row : t.rows()) {
            pipedLine(sb, t, row.cells(), row.spans(), width);
        }
        return notes(sb, t);
    }

    /** The headers' first lines, then their second lines, and so on; a header with fewer lines has empty ones. */
    private static List<List<String>> headerLines(Table t) {
        List<String[]> split = t.columns().stream().map(c -> c.header().split("\n", -1)).toList();
        int lines = split.stream().mapToInt(h -> h.length).max().orElse(1);
        List<List<String>> out = new ArrayList<>();
        for (int k = 0; k < lines; k++) {
            int line = k;
            out.add(split.stream().map(h -> line < h.length ? h[line] : "").toList());
        }
        return out;
    }

    private static int[] widths(Table t) {
        int[] width = new int[t.columns().size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = t.columns().get(i).minWidth();
        }
        for (List<String> header : headerLines(t)) {
            for (int i = 0; i < width.length; i++) {
                width[i] = Math.max(width[i], header.get(i).length());
            }
        }
        for (Table.Row row : t.rows()) {
            int counted = row.spans() ? row.cells().size() - 1 : row.cells().size();
            for (int i = 0; i < counted; i++) {
                width[i] = Math.max(width[i], row.cells().get(i).length());
            }
        }
        return width;
    }

    private static String pad(Table t, int column, String cell, int width) {
        String pad = " ".repeat(Math.max(0, width - cell.length()));
        return t.columns().get(column).align() == Table.Align.RIGHT ? pad + cell : cell + pad;
    }

    private static void alignedLine(StringBuilder sb, Table t, List<String> cells, boolean spans, int[] width, String gap) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            boolean spanning = spans && i == cells.size() - 1;
            line.append(spanning ? cells.get(i) : pad(t, i, cells.get(i), width[i])).append(gap);
            if (i + 1 < width.length && t.columns().get(i + 1).apart()) {
                line.append(' ');
            }
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    private static void pipedLine(StringBuilder sb, Table t, List<String> cells, boolean spans, int[] width) {
        sb.append('|');
        for (int i = 0; i < cells.size(); i++) {
            boolean spanning = spans && i == cells.size() - 1;
            sb.append(' ').append(spanning ? cells.get(i) : pad(t, i, cells.get(i), width[i])).append(" |");
        }
        sb.append('\n');
    }

    private static String notes(StringBuilder sb, Table t) {
        t.notes().forEach(line -> sb.append(line).append('\n'));
        return sb.toString();
    }
}
