package io.xferbench.client;

import java.util.List;

/** A report as GitHub-flavoured Markdown: the run summary, then one table per section (for PRs and job summaries). */
final class MarkdownReport {
    private MarkdownReport() {
    }

    static String render(Report report) {
        StringBuilder b = new StringBuilder("# xferbench results\n\n");
        for (String line : RunSummary.lines(report)) {
            b.append("- ").append(escape(line)).append('\n');
        }
        for (ResultTable.Section section : ResultTable.of(report)) {
            b.append("\n## ").append(escape(section.heading())).append("\n\n");
            table(b, section.columns(), section.rows());
        }
        return b.toString();
    }

    static void table(StringBuilder b, List<String> columns, List<List<String>> rows) {
        b.append(row(columns));
        b.append("|").append("---|".repeat(columns.size())).append('\n');
        for (List<String> r : rows) {
            b.append(row(r));
        }
    }

    private static String row(List<String> cells) {
        StringBuilder b = new StringBuilder("|");
        for (String c : cells) {
            b.append(' ').append(escape(c)).append(" |");
        }
        return b.append('\n').toString();
    }

    /** A cell may hold a failure message: pipes would split it, newlines would end the table. */
    static String escape(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
