package io.xferbench.jmh.gate;

import io.xferbench.core.registry.DownloadMethods;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the gate checks and how much change it tolerates; stored in the baseline file so the thresholds
 * travel with the numbers they apply to.
 *
 * @param countPattern  secondary results that are kernel counts per op (deterministic: gated hard)
 * @param countTolerance relative tolerance of a count (0.05 = 5%)
 * @param countFloor    absolute tolerance per op, for counts near zero (e.g. read/op of transfer-to); under one call
 *                      per op, so one more syscall per op always fails
 * @param ratioParam    the param whose values are compared with each other in one run (the method)
 * @param ruler         the value of {@code ratioParam} every other value is divided by
 * @param ratioDrop     relative drop of a ratio that may be a regression (0.20 = 20%), if the intervals are disjoint
 * @param backgroundPattern counts of syscalls that follow thread scheduling or the JVM's housekeeping, not the
 *                      transfer path: waits and wake-ups (futex, epoll_wait, poll, sleeps) and page protection changes
 *                      (mprotect, madvise: JIT code installation, allocator arenas; once 0.01 → 8 per op between two runs
 *                      of the same io_uring reader). Reported, never gated, and left out of the totals
 * @param pacedRows     rows whose syscalls follow the socket's pace: a benchmark's simple class name (all its rows) or
 *                      {@code Benchmark:id} (the rows with a param of that value). Non-blocking Netty writes split as the
 *                      socket fills; receivers read whatever has arrived; relays do both; io_uring event loops reap
 *                      completions in batches that depend on timing. Their counts get the wider paced band
 * @param pacedTolerance relative tolerance for paced rows
 * @param pacedFloor    absolute tolerance per op for paced rows
 */
public record GatePolicy(String countPattern, double countTolerance, double countFloor, String ratioParam, String ruler,
                         double ratioDrop, String backgroundPattern, List<String> pacedRows, double pacedTolerance,
                         double pacedFloor) {

    public static final GatePolicy DEFAULT = new GatePolicy("^(syscalls|io_uring)([./][^/]*)?/(op|MiB)$", 0.05, 0.9, "method", "stream", 0.20,
            "^syscalls\\.(futex|epoll_wait|epoll_pwait|epoll_pwait2|poll|ppoll|select|pselect6|sched_yield|nanosleep|clock_nanosleep"
                    + "|mprotect|madvise)/op$",
            defaultPacedRows(), 1.0, 4.0);

    /**
     * The download methods whose descriptors say they are socket-paced, every upload receiver and relay (they read
     * from a socket whatever has arrived), and the io_uring file readers (batches of completions).
     */
    public static List<String> defaultPacedRows() {
        List<String> out = new ArrayList<>();
        DownloadMethods.all().stream().filter(m -> m.traits().socketPaced()).map(m -> "FileToSocketBenchmark:" + m.id()).forEach(out::add);
        out.addAll(List.of("SocketToFileBenchmark", "ProxyRelayBenchmark", "FileReadBenchmark:io-uring", "FileReadBenchmark:io-uring-direct"));
        return out;
    }

    public boolean isBackground(String metricName) {
        return Pattern.compile(backgroundPattern).matcher(metricName).matches();
    }

    /** Whether {@code pacedRows} names the row's benchmark, or the benchmark with one of the row's param values. */
    public boolean isPaced(BenchmarkResult row) {
        String name = row.benchmark();
        int method = name.lastIndexOf('.');
        String type = name.substring(name.lastIndexOf('.', method - 1) + 1, method);
        return pacedRows.contains(type) || row.params().values().stream().anyMatch(v -> pacedRows.contains(type + ":" + v));
    }

    /** The tolerance band of a count with baseline value {@code base}, in a paced row or not. */
    public double countBand(double base, boolean paced) {
        return paced ? Math.max(pacedTolerance * Math.abs(base), pacedFloor) : countBand(base);
    }

    public boolean isCount(String metricName) {
        return Pattern.compile(countPattern).matcher(metricName).matches();
    }

    /** The tolerance band of a count with baseline value {@code base}. */
    public double countBand(double base) {
        return Math.max(countTolerance * Math.abs(base), countFloor);
    }
}
