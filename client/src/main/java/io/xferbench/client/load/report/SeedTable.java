package io.xferbench.client.load.report;

import io.xferbench.client.load.engine.LoadResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The seed's summary (the load issue's question in its own columns): per server design and operation at one
 * concurrency, driven by this client, how long the measured requests took, requests/s, the server's threads and p99.
 */
public final class SeedTable {
    private SeedTable() {
    }

    public static String render(List<LoadReport.Row> rows, int concurrency) {
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"server", "model", "proto", "op", "requests", "time s", "req/s", "threads peak", "started", "p99 ms",
            "verified"});
        for (LoadReport.Row row : rows) {
            if (row.concurrency() != concurrency || !row.client().equals("xferbench") || row.skipped() != null) {
                continue;
            }
            LoadResult r = row.result();
            cells.add(new String[] {row.server(), row.model(), row.protocol(), row.operation(), String.valueOf(r.requests()),
                LoadReport.f("%.1f", r.seconds()), LoadReport.f("%.0f", r.requestsPerSecond()),
                row.serverFigures() == null ? "n/a" : String.valueOf(row.serverFigures().threadsPeak()),
                row.serverReport() == null ? "n/a" : String.valueOf(row.serverReport().threadsStarted()),
                LoadReport.f("%.2f", r.latency().p99()), row.verified() ? "yes" : "NO"});
        }
        if (cells.size() == 1) {
            return "No measured row at " + concurrency + " connections for the summary (--seed-concurrency).\n";
        }
        return "Summary at " + concurrency + " connections (this client; threads peak: live threads of all the server's "
                + "processes, sampled every 10 ms; started: platform threads the xferbench server started from the run's start, warm-up included):\n"
                + LoadTable.align(cells, 4);
    }
}
