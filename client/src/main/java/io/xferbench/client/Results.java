package io.xferbench.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.xferbench.core.Sizes;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
     * @param far           MEASURE_END of the server or proxy: cpuUserSeconds, cpuSystemSeconds, syscalls or
     *                      syscallsUnavailable
     */
    static MethodResult of(TransferDriver.Job<?> job, boolean countSyscalls, List<TransferDriver.Round> rounds,
                           double clientUser, double clientSystem, JsonNode far) {
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
        String unavailable = text(far.get("syscallsUnavailable"));
        JsonNode sys = far.get("syscalls");
        if (!countSyscalls) {
            unavailable = NOT_REQUESTED;
        } else if (sys != null && !sys.isNull()) {
            syscalls = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = sys.get("bySyscall").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                if (f.getValue().asLong() > 0) {
                    syscalls.put(f.getKey(), f.getValue().asLong());
                }
            }
            long total = sys.get("total").asLong();
            long named = syscalls.values().stream().mapToLong(Long::longValue).sum();
            if (total > named) {
                syscalls.put("other", total - named);
            }
            perGiB = gib > 0 ? total / gib : null;
            perTransfer = transfers > 0 ? total / (double) transfers : null;
            uring = sys.get("ioUringSubmissions").asLong();
            unavailable = null;
        }
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
                cpu(clientUser, clientSystem, gib, transfers),
                cpu(far.path("cpuUserSeconds").asDouble(), far.path("cpuSystemSeconds").asDouble(), gib, transfers),
                row.measuredProcess(), syscalls, perGiB, perTransfer, uring, unavailable, residency,
                row.direction().equals("upload") ? uploadPhases(rounds) : null, true, null, null);
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

    static Map<String, Object> cpu(double user, double system, double gib, int transfers) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("userSeconds", user);
        m.put("systemSeconds", system);
        m.put("userSecondsPerGiB", gib > 0 ? user / gib : null);
        m.put("systemSecondsPerGiB", gib > 0 ? system / gib : null);
        m.put("userMicrosPerTransfer", transfers > 0 ? user * 1e6 / transfers : null);
        m.put("systemMicrosPerTransfer", transfers > 0 ? system * 1e6 / transfers : null);
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

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
