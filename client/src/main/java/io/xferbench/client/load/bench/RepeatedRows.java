package io.xferbench.client.load.bench;

import io.xferbench.client.load.engine.UnmeasuredErrors;
import io.xferbench.client.load.exchange.MethodsRun;
import io.xferbench.client.load.fileops.ReadBack;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.Repeats;
import io.xferbench.client.load.target.JitSettle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Folds each row's windows ({@code load-bench --repeat N}, one per round) into one row: the window with the median
 * requests/s (the lower middle one for an even N) stands for the row, so its latency, CPU, threads and syscalls are one
 * window's own, consistent with each other; {@link Repeats} adds the spread, every window's errors, and two ratios to
 * the best xferbench model (same client, protocol, operation and concurrency). One is taken round by round, its median
 * and range over rounds: a round's windows are the closest in time, so a drift of the machine cancels out of it; but a
 * round's best is the luckiest of its models' windows, so with several models of like speed every one but the luckiest
 * sits under 1 by about the rounds' noise. The other is the ratio of medians (the row's median window over the highest
 * median among the models), which that bias does not touch. With several concurrencies, each row also gets its per-round
 * ratio to the same row at the fewest connections ({@link Repeats.VsFewest}): the "no collapse" asks how a model
 * holds from 50 connections to 1,000, and on a machine whose speed drifts by more than that between minutes only a
 * comparison within a round can tell.
 */
public final class RepeatedRows {
    private RepeatedRows() {
    }

    /** @param cells each row's windows in round order (window r from round r); every cell has the same rounds */
    public static List<LoadReport.Row> merge(List<List<LoadReport.Row>> cells) {
        Map<String, Map<Integer, Double>> best = new HashMap<>();
        for (List<LoadReport.Row> windows : cells) {
            for (int r = 0; r < windows.size(); r++) {
                LoadReport.Row w = windows.get(r);
                if (w.skipped() == null && comparedWithModels(w)) {
                    best.computeIfAbsent(group(w), k -> new HashMap<>()).merge(r, w.result().requestsPerSecond(), Math::max);
                }
            }
        }
        List<LoadReport.Row> rows = new ArrayList<>(cells.size());
        Map<String, Double> bestMedian = new HashMap<>();
        for (List<LoadReport.Row> windows : cells) {
            LoadReport.Row row = fold(windows, best);
            rows.add(row);
            if (row.skipped() == null && comparedWithModels(row)) {
                bestMedian.merge(group(row), row.result().requestsPerSecond(), Math::max);
            }
        }
        rows.replaceAll(row -> {
            Double b = row.repeats() == null ? null : bestMedian.get(group(row));
            return b == null || !comparedWithModels(row) || b <= 0 ? row
                    : row.withRepeats(row.repeats().withMedianToBestMedian(row.result().requestsPerSecond() / b));
        });
        addVsFewest(rows);
        return rows;
    }

    /** Each row's per-round ratio to its own row (same server, model, client, protocol, operation) at the fewest connections. */
    private static void addVsFewest(List<LoadReport.Row> rows) {
        Map<String, LoadReport.Row> fewest = new HashMap<>();
        for (LoadReport.Row row : rows) {
            if (row.repeats() != null) {
                fewest.merge(series(row), row, (a, b) -> b.concurrency() < a.concurrency() ? b : a);
            }
        }
        rows.replaceAll(row -> {
            LoadReport.Row base = row.repeats() == null ? null : fewest.get(series(row));
            if (base == null || base.concurrency() == row.concurrency()) {
                return row;
            }
            List<Double> rates = row.repeats().requestsPerSecByRound();
            List<Double> baseRates = base.repeats().requestsPerSecByRound();
            List<Double> ratios = new ArrayList<>();
            for (int r = 0; r < Math.min(rates.size(), baseRates.size()); r++) {
                if (baseRates.get(r) > 0) {
                    ratios.add(rates.get(r) / baseRates.get(r));
                }
            }
            return ratios.isEmpty() ? row
                    : row.withRepeats(row.repeats().withVsFewest(new Repeats.VsFewest(base.concurrency(), Repeats.Spread.of(ratios))));
        });
    }

    private static LoadReport.Row fold(List<LoadReport.Row> windows, Map<String, Map<Integer, Double>> best) {
        for (LoadReport.Row w : windows) {
            if (w.skipped() != null) {
                return w; // skipped for a reason that holds for every round (no nginx, no wrk, a refused probe)
            }
        }
        List<Double> rates = windows.stream().map(w -> w.result().requestsPerSecond()).toList();
        int[] byRate = IntStream.range(0, windows.size()).boxed().sorted(Comparator.comparingDouble(rates::get))
                .mapToInt(Integer::intValue).toArray();
        LoadReport.Row shown = windows.get(byRate[(byRate.length - 1) / 2]);
        Map<String, Long> errors = new TreeMap<>();
        UnmeasuredErrors unmeasured = UnmeasuredErrors.NONE;
        ReadBack readBack = null;
        MethodsRun methodsRun = MethodsRun.NONE;
        boolean verified = true;
        for (LoadReport.Row w : windows) {
            w.result().errors().forEach((k, v) -> errors.merge(k, v, Long::sum));
            unmeasured = unmeasured.plus(w.result().unmeasured());
            methodsRun = methodsRun.plus(w.result().methodsRun());
            if (w.readBack() != null) {
                readBack = readBack == null ? w.readBack() : readBack.plus(w.readBack());
            }
            verified &= w.verified();
        }
        Repeats.Spread ratio = null;
        if (comparedWithModels(shown)) {
            Map<Integer, Double> bestByRound = best.getOrDefault(group(shown), Map.of());
            List<Double> ratios = new ArrayList<>();
            for (int r = 0; r < rates.size(); r++) {
                Double b = bestByRound.get(r);
                if (b != null && b > 0) {
                    ratios.add(rates.get(r) / b);
                }
            }
            ratio = ratios.isEmpty() ? null : Repeats.Spread.of(ratios);
        }
        LoadReport.Row folded = shown.withRepeats(new Repeats(rates, errors, unmeasured, readBack, verified, ratio, null, null, methodsRun));
        JitSettle.Outcome settle = windows.get(0).jitSettle(); // the settle ran before the row's first window
        return settle == null ? folded : folded.withJitSettle(settle);
    }

    /** The "best model" is among the xferbench server's I/O models; nginx rows have their own columns. */
    private static boolean comparedWithModels(LoadReport.Row w) {
        return w.server().equals("xferbench");
    }

    private static String series(LoadReport.Row w) {
        return w.server() + "|" + w.model() + "|" + w.client() + "|" + w.protocol() + "|" + w.operation() + "|" + w.fileSize();
    }

    private static String group(LoadReport.Row w) {
        return w.client() + "|" + w.protocol() + "|" + w.operation() + "|" + w.concurrency();
    }
}
