package io.xferbench.client.render;

import io.xferbench.client.report.Report;
import io.xferbench.client.report.RunSummary;
import io.xferbench.core.table.MarkdownTable;

/** A report as GitHub-flavoured Markdown: the run summary, then one table per section (for PRs and job summaries). */
final class MarkdownReport {
    private MarkdownReport() {
    }

    static String render(Report report) {
        StringBuilder b = new StringBuilder("# xferbench results\n\n");
        for (String line : RunSummary.lines(report)) {
            b.append("- ").append(MarkdownTable.escape(line)).append('\n');
        }
        for (ResultTable.Section section : ResultTable.of(report, ResultTable.Layout.DOCUMENT)) {
            b.append("\n## ").append(MarkdownTable.escape(section.heading())).append("\n\n");
            b.append(MarkdownTable.table(section.table()));
        }
        return b.toString();
    }
}
