package io.xferbench.client.render;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.client.report.Report;
import io.xferbench.client.report.RunSummary;
import io.xferbench.core.table.HtmlTable;
import java.io.IOException;

/**
 * One self-contained HTML page per run: summary, result tables, every chart as inline SVG and the full environment.
 * Nothing is loaded from the network, so the file can be mailed or attached to a CI run and still open.
 */
final class HtmlReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private HtmlReport() {
    }

    static String render(Report report) throws IOException {
        StringBuilder b = new StringBuilder("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>xferbench results</title>
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <style>
                body { font-family: sans-serif; margin: 1.5em; color: #222; }
                table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 13px; }
                th, td { border: 1px solid #ccc; padding: 3px 6px; text-align: right; vertical-align: top; }
                th { background: #f0f0f0; } td:first-child, td:last-child { text-align: left; }
                td.skipped { color: #555; font-style: italic; text-align: left; } td.failed { color: #b00000; text-align: left; }
                .summary { color: #444; } pre { background: #f6f6f6; padding: 0.8em; font-size: 12px; overflow-x: auto; }
                .wide { overflow-x: auto; } svg { max-width: 100%; height: auto; }
                </style></head><body>
                <h1>xferbench results</h1>
                """);
        b.append("<ul class=\"summary\">\n");
        for (String line : RunSummary.lines(report)) {
            b.append("<li>").append(escape(line)).append("</li>\n");
        }
        b.append("</ul>\n");
        for (ResultTable.Section section : ResultTable.of(report, ResultTable.Layout.DOCUMENT)) {
            b.append("<h2>").append(escape(section.heading())).append("</h2>\n");
            // A table wider than a phone scrolls in its own box; the page itself never scrolls sideways.
            b.append("<div class=\"wide\">").append(HtmlTable.render(section.table())).append("</div>\n");
        }
        // Charts are drawn 1200 px wide: on a narrower screen they shrink to fit (their viewBox keeps the drawing).
        b.append("<h2>Charts</h2>\n");
        for (ReportCharts.Named named : ReportCharts.of(report)) {
            // The SVG's own prolog and DOCTYPE are not allowed inside HTML; the <svg> element is.
            String svg = ChartFiles.svg(named.chart());
            b.append("<div>").append(svg.substring(svg.indexOf("<svg"))).append("</div>\n");
        }
        b.append("<h2>Environment</h2>\n<pre>").append(escape(JSON.writeValueAsString(report.environment()))).append("</pre>\n");
        return b.append("</body></html>\n").toString();
    }

    private static String escape(String s) {
        return HtmlTable.escape(s);
    }
}
