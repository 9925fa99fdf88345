package io.xferbench.core.table;

import java.util.List;

/**
 * A {@link Table} as GitHub-flavoured Markdown: the preamble as a list, the table (numbers right-aligned by the rule's
 * colons), then the notes after a blank line (a line right under a table would be read as one of its rows).
 */
public final class MarkdownTable {
    private MarkdownTable() {
    }

    public static String render(Table t) {
        StringBuilder sb = new StringBuilder();
        t.preamble().forEach(line -> sb.append("- ").append(escape(line)).append('\n'));
        if (!t.preamble().isEmpty()) {
            sb.append('\n');
        }
        sb.append(table(t));
        if (!t.notes().isEmpty()) {
            sb.append('\n');
            t.notes().forEach(line -> sb.append(line).append('\n'));
        }
        return sb.toString();
    }

    /** The table alone: header, rule and rows; a spanning row gets empty cells for the columns it stands for. */
    public static String table(Table t) {
        StringBuilder sb = new StringBuilder(line(t.headers())).append('|');
        for (Table.Column c : t.columns()) {
            sb.append(c.align() == Table.Align.RIGHT ? "---:|" : "---|");
        }
        sb.append('\n');
        for (Table.Row row : t.rows()) {
            sb.append(line(t.filled(row)));
        }
        return sb.toString();
    }

    private static String line(List<String> cells) {
        StringBuilder sb = new StringBuilder("|");
        for (String c : cells) {
            sb.append(' ').append(escape(c)).append(" |");
        }
        return sb.append('\n').toString();
    }

    /** A cell may hold a failure message: pipes would split it, newlines would end the table. */
    public static String escape(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
