package io.xferbench.client;

import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.nativeio.ResourceUsage;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;

/** Turns measured rounds and the two measurement windows into a {@link MethodResult} row. No I/O. */
final class Results {
    static final String NOT_REQUESTED = "not requested (--no-syscalls); the far side counted anyway, the protocol has no way to ask it not to";

    private Results() {
    }

    /**
     * @param countSyscalls whether syscall numbers belong in the row (--no-syscalls drops them)
     * @param rounds        the measured rounds, warm-up excluded
     * @param client        the client process's usage over the measured rounds
     * @param far           MEASURE_END of the server or proxy
     * @param own           local addresses of this run's connections, to tell them from other clients' in the window
     */
    static MethodResult of(TransferDriver.Job<?> job, boolean countSyscalls, List<TransferDriver.Round> rounds,
                           ResourceUsage client, MeasurementReport far, Set<String> own) {
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("no measured rounds");
        }
        Histogram latency = new Histogram(3);
        double[] rates = new double[rounds.size()];
        double[] perSecond = new double[rounds.size()];
        long bytes = 0;
        int transfers = 0;
        int residencyBefore = Integer.MAX_VALUE;
        int residencyAfter = Integer.MAX_VALUE;
        long wallNanos = 0;
        for (int r = 0; r < rounds.size(); r++) {
            TransferDriver.Round round = rounds.get(r);
            long roundBytes = 0;
            for (Outcome o : round.outcomes()) {
                if (o.failure() != null) {
                    return job.failed("verification failed: " + o.failure());
                }
                roundBytes += o.bytes();
                latency.recordValue(Math.max(1, o.clientNanos() / 1000));
                residencyBefore = Math.min(residencyBefore, o.residencyBefore());
                residencyAfter = Math.min(residencyAfter, o.residencyAfter());
            }
            double seconds = Math.max(1, round.nanos()) / 1e9;
            rates[r] = Sizes.mib(roundBytes) / seconds;
            perSecond[r] = round.outcomes().size() / seconds;
            bytes += roundBytes;
            transfers += round.outcomes().size();
            wallNanos += round.nanos();
        }
        double[] sortedRates = sorted(rates);
        double[] sortedPerSecond = sorted(perSecond);
        double gib = bytes / (double) Sizes.GiB;
        Map<String, Double> lat = new LinkedHashMap<>();
        lat.put("p50", latency.getValueAtPercentile(50) / 1000.0);
        lat.put("p99", latency.getValueAtPercentile(99) / 1000.0);
        lat.put("max", latency.getMaxValue() / 1000.0);

        Map<String, Long> syscalls = null;
        Double perGiB = null;
        Double perTransfer = null;
        Long uring = null;
        String unavailable = far.syscallsUnavailable();
        SyscallCounts sys = far.syscalls();
        if (!countSyscalls) {
            unavailable = NOT_REQUESTED;
        } else if (sys != null) {
            syscalls = new LinkedHashMap<>(sys.nonZero());
            perGiB = gib > 0 ? sys.total() / gib : null;
            perTransfer = transfers > 0 ? sys.total() / (double) transfers : null;
            uring = sys.ioUringSubmissions();
            unavailable = null;
        }
        int foreign = far.overlap().foreignConnections(own);
        Map<String, Integer> residency = null;
        TransferDriver.Row row = job.row();
        if (!row.direction().equals("upload")) {
            residency = new LinkedHashMap<>();
            residency.put("beforeMin", residencyBefore);
            residency.put("afterMin", residencyAfter);
        }
        return new MethodResult(row.direction(), row.method(), row.scenario(), row.size(), row.relayBuffer(), bytes, transfers, wallNanos / 1e9,
                median(sortedRates), sortedRates[0], sortedRates[sortedRates.length - 1], Arrays.stream(rates).boxed().toList(),
                median(sortedPerSecond), sortedPerSecond[0], sortedPerSecond[sortedPerSecond.length - 1], lat,
                cpu(client.userSeconds(), client.systemSeconds(), client.voluntarySwitches(), client.involuntarySwitches(), gib, transfers),
                cpu(far.cpuUserSeconds(), far.cpuSystemSeconds(), far.voluntarySwitches(), far.involuntarySwitches(), gib, transfers),
                row.measuredProcess(), syscalls, perGiB, perTransfer, uring, unavailable, residency,
                row.direction().equals("upload") ? uploadPhases(rounds) : null, foreign > 0, foreign, true, null, null);
    }

    /** Upload: medians of the server's receive, verify (re-read) and fsync times per transfer. */
    static Map<String, Double> uploadPhases(List<TransferDriver.Round> rounds) {
        List<Outcome> all = rounds.stream().flatMap(r -> r.outcomes().stream()).toList();
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("receiveP50", medianMillis(all, Outcome::serverNanos));
        m.put("verifyP50", medianMillis(all, Outcome::verifyNanos));
        m.put("fsyncP50", medianMillis(all, Outcome::fsyncNanos));
        return m;
    }

    /** Median in ms of the non-negative values, or null when there are none (-1: not measured). */
    private static Double medianMillis(List<Outcome> outcomes, ToLongFunction<Outcome> f) {
        double[] v = outcomes.stream().mapToLong(f).filter(n -> n >= 0).mapToDouble(n -> n / 1e6).sorted().toArray();
        return v.length == 0 ? null : median(v);
    }

    /** CPU time and context switches (voluntary: blocked; involuntary: preempted), in total, per GiB, per transfer. */
    static Map<String, Object> cpu(double user, double system, long voluntary, long involuntary, double gib, int transfers) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("userSeconds", user);
        m.put("systemSeconds", system);
        m.put("userSecondsPerGiB", gib > 0 ? user / gib : null);
        m.put("systemSecondsPerGiB", gib > 0 ? system / gib : null);
        m.put("userMicrosPerTransfer", transfers > 0 ? user * 1e6 / transfers : null);
        m.put("systemMicrosPerTransfer", transfers > 0 ? system * 1e6 / transfers : null);
        long switches = voluntary + involuntary;
        m.put("voluntarySwitches", voluntary);
        m.put("involuntarySwitches", involuntary);
        m.put("contextSwitchesPerGiB", gib > 0 ? switches / gib : null);
        m.put("contextSwitchesPerTransfer", transfers > 0 ? switches / (double) transfers : null);
        return m;
    }

    private static double[] sorted(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s;
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
