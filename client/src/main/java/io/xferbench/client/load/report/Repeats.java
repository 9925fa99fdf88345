package io.xferbench.client.load.report;

import io.xferbench.client.load.engine.UnmeasuredErrors;
import io.xferbench.client.load.exchange.MethodsRun;
import io.xferbench.client.load.fileops.ReadBack;
import java.util.List;
import java.util.Map;

/**
 * What a row measured in several windows ({@code load-bench --repeat N}) adds to the window it shows (the one with the
 * median requests/s): the spread of requests/s, everything that failed in any window, and two ratios to the best
 * xferbench model of the same client, protocol, operation and concurrency: round by round, and of the medians; and, with
 * several concurrencies, the ratio to the same row at the fewest connections, round by round.
 *
 * @param requestsPerSecByRound the windows' requests/s in round order
 * @param errors                failed requests by cause, summed over every window
 * @param unmeasured            failed requests outside the windows (warm-ups, drains) by cause, summed over every window
 * @param readBack              the HTTP uploads' read-backs summed over every window, or null (not an HTTP upload row)
 * @param verified              every window verified
 * @param ratioToBest           the per-round ratios to the round's best model, or null (not an xferbench server's row)
 * @param medianToBestMedian    the median window's requests/s over the highest such median among the models, or null
 *                              (not an xferbench server's row)
 * @param vsFewest              the per-round ratios to the same server, model, client, protocol and operation at the
 *                              fewest connections measured, or null (this row is at the fewest, or only one concurrency)
 * @param methodsRun            the download methods every window's answers said ran
 */
public record Repeats(List<Double> requestsPerSecByRound, Map<String, Long> errors, UnmeasuredErrors unmeasured, ReadBack readBack,
               boolean verified, Spread ratioToBest, Double medianToBestMedian, VsFewest vsFewest,
               MethodsRun methodsRun) {
    public Repeats {
        requestsPerSecByRound = List.copyOf(requestsPerSecByRound);
        errors = Map.copyOf(errors);
    }

    /** Windows that failed nothing outside themselves. */
    Repeats(List<Double> requestsPerSecByRound, Map<String, Long> errors, ReadBack readBack, boolean verified,
            Spread ratioToBest, Double medianToBestMedian, VsFewest vsFewest) {
        this(requestsPerSecByRound, errors, UnmeasuredErrors.NONE, readBack, verified, ratioToBest, medianToBestMedian, vsFewest,
                MethodsRun.NONE);
    }

    public Repeats withMedianToBestMedian(Double ratio) {
        return new Repeats(requestsPerSecByRound, errors, unmeasured, readBack, verified, ratioToBest, ratio, vsFewest, methodsRun);
    }

    public Repeats withVsFewest(VsFewest v) {
        return new Repeats(requestsPerSecByRound, errors, unmeasured, readBack, verified, ratioToBest, medianToBestMedian, v, methodsRun);
    }

    public int windows() {
        return requestsPerSecByRound.size();
    }

    public double requestsPerSecMin() {
        return requestsPerSecByRound.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    public double requestsPerSecMax() {
        return requestsPerSecByRound.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * How a row's rate holds as connections grow: round by round, its requests/s over the same row's at
     * {@code connections}, the fewest measured. Both windows of a round are minutes apart at most, where the rows'
     * medians may come from different parts of the run.
     */
    public record VsFewest(int connections, Spread ratio) {
    }

    /** Values' median (the lower of the two middle ones for an even count, as the window shown), least and greatest. */
    public record Spread(double median, double min, double max, int of) {
        public static Spread of(List<Double> values) {
            List<Double> sorted = values.stream().sorted().toList();
            return new Spread(sorted.get((sorted.size() - 1) / 2), sorted.get(0), sorted.get(sorted.size() - 1), sorted.size());
        }
    }
}
