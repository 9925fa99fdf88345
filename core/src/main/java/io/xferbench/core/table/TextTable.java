package io.xferbench.core.table;

import java.util.List;

/**
 * A {@link Table} as text for a terminal: every column padded to its widest cell. {@link #aligned} separates columns
 * by two spaces and says its preamble as {@code #} comment lines; {@link #piped} draws Markdown's pipes and rule, so
 * the text pastes into docs as is. A spanning row's last cell is written as is and widens no column.
 */
public final class TextTable {
    private TextTable() {
    }

    public static String aligned(Table t) {
        int[] width = widths(t);
        StringBuilder sb = new StringBuilder();
        t.preamble().forEach(line -> sb.append("# ").append(line).append('\n'));
        alignedLine(sb, t, t.headers(), false, width);
        for (Table.Row row : t.rows()) {
            alignedLine(sb, t, row.cells(), row.spans(), width);
        }
        return notes(sb, t);
    }

    public static String piped(Table t) {
        int[] width = widths(t);
        StringBuilder sb = new StringBuilder();
        t.preamble().forEach(line -> sb.append("# ").append(line).append('\n'));
        pipedLine(sb, t, t.headers(), false, width);
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

    private static int[] widths(Table t) {
        int[] width = new int[t.columns().size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = Math.max(t.columns().get(i).minWidth(), t.columns().get(i).header().length());
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

    private static void alignedLine(StringBuilder sb, Table t, List<String> cells, boolean spans, int[] width) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            boolean spanning = spans && i == cells.size() - 1;
            line.append(spanning ? cells.get(i) : pad(t, i, cells.get(i), width[i])).append("  ");
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
