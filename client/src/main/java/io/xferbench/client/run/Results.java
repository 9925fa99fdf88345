package io.xferbench.client.run;

import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.nativeio.ResourceUsage;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;

/** Turns measured rounds and the two measurement windows into a {@link MethodResult} row. No I/O. */
final class Results {
    static final String NOT_REQUESTED = "not requested (--no-syscalls)";

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
        MethodResult.Throughput throughput = new MethodResult.Throughput(bytes, transfers, wallNanos / 1e9,
                median(sortedRates), sortedRates[0], sortedRates[sortedRates.length - 1], Arrays.stream(rates).boxed().toList(),
                median(sortedPerSecond), sortedPerSecond[0], sortedPerSecond[sortedPerSecond.length - 1]);
        MethodResult.Latency lat = new MethodResult.Latency(latency.getValueAtPercentile(50) / 1000.0,
                latency.getValueAtPercentile(99) / 1000.0, latency.getMaxValue() / 1000.0);
        int foreign = far.overlap().foreignConnections(own);
        MethodResult.Row row = job.row();
        boolean upload = row.direction() == Direction.UPLOAD;
        return new MethodResult(row, throughput, lat,
                MethodResult.Cpu.of(client.userSeconds(), client.systemSeconds(), client.voluntarySwitches(), client.involuntarySwitches(), gib, transfers),
                MethodResult.Cpu.of(far.cpuUserSeconds(), far.cpuSystemSeconds(), far.voluntarySwitches(), far.involuntarySwitches(), gib, transfers),
                syscalls(countSyscalls, far, gib, transfers),
                upload ? null : new MethodResult.Residency(residencyBefore, residencyAfter),
                upload ? uploadPhases(rounds) : null, new MethodResult.Sharing(foreign > 0, foreign),
                far.threadsPeak() > 0 ? far.threadsPeak() : null, MethodResult.Status.MEASURED);
    }

    /** The far side's counts, per GiB and per transfer, or why there are none. */
    private static MethodResult.Syscalls syscalls(boolean countSyscalls, MeasurementReport far, double gib, int transfers) {
        if (!countSyscalls) {
            return MethodResult.Syscalls.unavailable(NOT_REQUESTED);
        }
        SyscallCounts sys = far.syscalls();
        if (sys == null) {
            return MethodResult.Syscalls.unavailable(far.syscallsUnavailable());
        }
        return new MethodResult.Syscalls(new LinkedHashMap<>(sys.nonZero()), gib > 0 ? sys.total() / gib : null,
                transfers > 0 ? sys.total() / (double) transfers : null, sys.ioUringSubmissions(), null);
    }

    /** Upload: medians of the server's receive, verify (re-read) and fsync times per transfer. */
    static MethodResult.UploadPhases uploadPhases(List<TransferDriver.Round> rounds) {
        List<Outcome> all = rounds.stream().flatMap(r -> r.outcomes().stream()).toList();
        return new MethodResult.UploadPhases(medianMillis(all, Outcome::serverNanos), medianMillis(all, Outcome::verifyNanos),
                medianMillis(all, Outcome::fsyncNanos));
    }

    /** Median in ms of the non-negative values, or null when there are none (-1: not measured). */
    private static Double medianMillis(List<Outcome> outcomes, ToLongFunction<Outcome> f) {
        double[] v = outcomes.stream().mapToLong(f).filter(n -> n >= 0).mapToDouble(n -> n / 1e6).sorted().toArray();
        return v.length == 0 ? null : median(v);
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
