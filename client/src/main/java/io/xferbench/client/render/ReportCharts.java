package io.xferbench.client.render;

import io.xferbench.client.report.Report;
import io.xferbench.client.report.RunSummary;
import io.xferbench.client.result.DirectionJson;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The charts of a report: for rows that move bytes, MiB/s (median, whisker min..max over rounds), CPU s/GiB and
 * syscalls/GiB of the measured process; for empty-body exchanges the same per request. Skipped, failed and uncounted
 * rows keep their slot and say why.
 */
public final class ReportCharts {
    private ReportCharts() {
    }

    /**
     * A chart and the suffix of its file names ({@code ""} for the main throughput chart).
     */
    public record Named(String suffix, BarChart chart) {
    }

    public static List<Named> of(Report report) {
        List<MethodResult> bulk = report.results().stream().filter(r -> r.row().size() > 0).toList();
        List<MethodResult> exchanges = report.results().stream().filter(r -> r.row().size() == 0).toList();
        List<String> subtitle = RunSummary.lines(report);
        String direction = report.results().isEmpty() ? "" : DirectionJson.name(report.results().get(0).row().direction()) + " ";
        String side = side(report);
        // A proxy run's measured process is the proxy: "proxy proxy CPU" said it twice.
        String measured = direction.equals(side + " ") ? side + " process" : direction + side;
        List<Named> charts = new ArrayList<>();
        if (!bulk.isEmpty()) {
            charts.add(new Named("", chart("xferbench " + direction + "throughput, MiB/s (bar: median, whisker: min..max over rounds)",
                    subtitle, "MiB/s", bulk, ReportCharts::mibPerSec)));
            charts.add(new Named("-cpu", chart("xferbench " + measured + " CPU seconds per GiB (usr+sys, the measured rounds)",
                    subtitle, side + " CPU s/GiB", bulk, r -> cpu(r, MethodResult.Cpu::userSecondsPerGiB, MethodResult.Cpu::systemSecondsPerGiB))));
            charts.add(new Named("-syscalls", chart("xferbench " + measured + " syscalls per GiB (all syscalls in the window)",
                    subtitle, side + " syscalls/GiB", bulk, r -> syscalls(r, r.syscallCounts().perGiB()))));
        }
        if (!exchanges.isEmpty()) {
            charts.add(new Named("-requests", chart("xferbench " + direction + "empty-body exchanges per second (bar: median, whisker: min..max over rounds)",
                    subtitle, "requests/s", exchanges, ReportCharts::requestsPerSec)));
            charts.add(new Named("-requests-cpu", chart("xferbench " + measured + " CPU microseconds per request (usr+sys)",
                    subtitle, side + " CPU us/request", exchanges,
                    r -> cpu(r, MethodResult.Cpu::userMicrosPerTransfer, MethodResult.Cpu::systemMicrosPerTransfer))));
            charts.add(new Named("-requests-syscalls", chart("xferbench " + measured + " syscalls per request",
                    subtitle, side + " syscalls/request", exchanges, r -> syscalls(r, r.syscallCounts().perTransfer()))));
        }
        return charts;
    }

    /** Groups by method label and slots by series, both in the order the report first names them. */
    static BarChart chart(String title, List<String> subtitle, String axis, List<MethodResult> rows,
                          Function<MethodResult, BarChart.Cell> measure) {
        LinkedHashSet<String> series = new LinkedHashSet<>();
        Map<String, Map<String, MethodResult>> byMethod = new LinkedHashMap<>();
        for (MethodResult r : rows) {
            series.add(series(r));
            byMethod.computeIfAbsent(r.label(), k -> new LinkedHashMap<>()).put(series(r), r);
        }
        List<BarChart.Group> groups = new ArrayList<>();
        for (Map.Entry<String, Map<String, MethodResult>> e : byMethod.entrySet()) {
            List<BarChart.Cell> cells = new ArrayList<>();
            for (String s : series) {
                MethodResult r = e.getValue().get(s);
                cells.add(r == null ? new BarChart.NotRun() : cell(r, measure));
            }
            groups.add(new BarChart.Group(e.getKey(), cells));
        }
        return new BarChart(title, subtitle, axis, List.copyOf(series), groups);
    }

    /** A bulk row's series is its size; an empty-body row's, its proxy scenario when it has one. */
    static String series(MethodResult r) {
        if (r.row().size() == 0 && r.row().scenario() != null) {
            return r.row().scenario().id();
        }
        return Sizes.format(r.row().size());
    }

    private static BarChart.Cell cell(MethodResult r, Function<MethodResult, BarChart.Cell> measure) {
        return switch (r.status()) {
            case MethodResult.Status.Skipped s -> new BarChart.Unmeasured("skipped: " + s.reason(), false);
            case MethodResult.Status.Failed f -> new BarChart.Unmeasured("FAILED: " + f.cause(), true);
            case MethodResult.Status.Measured m -> measure.apply(r);
        };
    }

    private static BarChart.Cell mibPerSec(MethodResult r) {
        MethodResult.Throughput t = r.throughput();
        return rate(t, t.mibPerSec(), t.mibPerSecMin(), t.mibPerSecMax());
    }

    private static BarChart.Cell requestsPerSec(MethodResult r) {
        MethodResult.Throughput t = r.throughput();
        if (t.transfersPerSec() == null) {
            return new BarChart.Unmeasured("n/a: report older than req/s", false);
        }
        return rate(t, t.transfersPerSec(), t.transfersPerSecMin(), t.transfersPerSecMax());
    }

    /** A bar with its whisker; one figure ({@link MethodResult.Throughput#single}) gets none, not one of zero width. */
    private static BarChart.Bar rate(MethodResult.Throughput t, double median, double min, double max) {
        return t.single() ? new BarChart.Bar(median, null, null, number(median) + " (no range)")
                : new BarChart.Bar(median, min, max, number(median) + " [" + number(min) + ".." + number(max) + "]");
    }

    private static BarChart.Cell cpu(MethodResult r, Function<MethodResult.Cpu, Double> user, Function<MethodResult.Cpu, Double> system) {
        MethodResult.Cpu cpu = r.serverCpu();
        if (cpu == null || user.apply(cpu) == null) {
            return new BarChart.Unmeasured("n/a", false);
        }
        double usr = user.apply(cpu);
        double sys = system.apply(cpu);
        return new BarChart.Bar(usr + sys, null, null, number(usr + sys) + " (usr " + number(usr) + ", sys " + number(sys) + ")");
    }

    private static BarChart.Cell syscalls(MethodResult r, Double value) {
        if (value == null) {
            String why = r.syscallCounts().unavailable();
            return new BarChart.Unmeasured("n/a" + (why == null ? "" : ": " + why), false);
        }
        return new BarChart.Bar(value, null, null, number(value));
    }

    /** Whose CPU and syscalls are charted: the proxy's in proxy runs, else the server's. */
    private static String side(Report report) {
        return report.results().stream().findFirst().map(r -> r.row().measuredProcess()).orElse("server");
    }

    /** Three significant digits at most, no exponent. */
    public static String number(double v) {
        double a = Math.abs(v);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return a == 0 ? "0" : String.format(Locale.ROOT, "%.3f", v);
    }
}
