package io.xferbench.client.load.report;

import io.xferbench.client.load.target.ServerPlacement;
import io.xferbench.client.load.target.LoadEnvironment;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.MachineDescription;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the sweep chart shows, before it is drawn: for each server design (server, model, protocol), requests/s and
 * peak server threads at each concurrency of the run's downloads driven by this client. A design with no measured
 * row at a concurrency has no point there (its line breaks, nothing is made up).
 *
 * @param title         what is measured
 * @param subtitle      settings and environment, one line each
 * @param concurrencies the x positions, ascending
 * @param lines         one per server design, in the bench's order
 */
public record SweepChart(String title, List<String> subtitle, List<Integer> concurrencies, List<Line> lines) {

    /**
     * One server design's points.
     *
     * @param requestsPerSec by concurrency
     * @param threadsPeak    by concurrency (absent where not sampled)
     */
    record Line(String label, Map<Integer, Double> requestsPerSec, Map<Integer, Integer> threadsPeak) {
    }

    /** @param path where the load went ({@link ServerPlacement#described()}) */
    public static SweepChart of(List<LoadReport.Row> rows, long fileSize, LoadEnvironment environment, String path) {
        Map<String, Line> lines = new LinkedHashMap<>();
        TreeSet<Integer> xs = new TreeSet<>();
        java.util.DoubleSummaryStatistics seconds = new java.util.DoubleSummaryStatistics();
        for (LoadReport.Row row : rows) {
            if (row.skipped() != null || !row.client().equals("xferbench") || !row.operation().equals("download")) {
                continue;
            }
            String label = row.server() + " " + row.model() + " (" + row.protocol() + ")";
            Line line = lines.computeIfAbsent(label, l -> new Line(l, new TreeMap<>(), new TreeMap<>()));
            line.requestsPerSec().put(row.concurrency(), row.result().requestsPerSecond());
            if (row.serverFigures() != null) {
                line.threadsPeak().put(row.concurrency(), row.serverFigures().threadsPeak());
            }
            xs.add(row.concurrency());
            seconds.accept(row.result().seconds());
        }
        List<String> subtitle = new ArrayList<>();
        subtitle.add(Sizes.format(fileSize) + " downloads, closed loop, every body verified; " + path);
        int windows = rows.stream().filter(r -> r.repeats() != null).mapToInt(r -> r.repeats().windows()).max().orElse(1);
        if (windows > 1) {
            subtitle.add("each point: the median of " + windows + " windows per row, taken round by round over the servers "
                    + "(--repeat); the table has each row's range");
        } else if (seconds.getCount() > 0) {
            // Without this a single window per point looked as settled as a median of several.
            subtitle.add("each point: one measured window of " + window(seconds) + " per row after its warm-up, no range "
                    + "(--repeat N measures N windows a row)");
        }
        MachineDescription machine = environment.machine();
        subtitle.add(machine.jdk() + " " + machine.kernel() + ", generator on " + machine.cpus() + " CPUs"
                + (machine.cpusAllowed() != null ? " (CPU list " + machine.cpusAllowed() + ")" : ""));
        return new SweepChart("Load sweep: requests/s and server threads against concurrent connections", subtitle,
                List.copyOf(xs), List.copyOf(lines.values()));
    }

    private static String window(java.util.DoubleSummaryStatistics seconds) {
        String min = String.format(java.util.Locale.ROOT, "%.1f", seconds.getMin());
        String max = String.format(java.util.Locale.ROOT, "%.1f", seconds.getMax());
        return (min.equals(max) ? min : min + "-" + max) + " s";
    }
}
