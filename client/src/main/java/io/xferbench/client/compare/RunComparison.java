package io.xferbench.client.compare;

import io.xferbench.client.report.Report;
import io.xferbench.client.report.SettingsDifference;
import io.xferbench.client.result.MethodResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Two runs' rows side by side, matched by direction, method (with its relay buffer), proxy scenario and size. Rows that
 * move bytes are compared in MiB/s, empty-body exchanges in req/s: the change of the median, and whether the two
 * min..max ranges overlap (when they do, the difference is within the runs' own spread).
 *
 * @param pairs    rows found in both runs, in A's order
 * @param onlyA    rows only the first run has
 * @param onlyB    rows only the second run has
 * @param repeated rows a run has more than once (e.g. {@code --method stream,stream}): their copies are paired in order,
 *                 the first of A with the first of B, and so on
 * @param settings the settings in which the runs differ: a change may come from them, not from the code or machine
 * @param machines where the runs' machines differ (JDK, kernel, CPUs, kernel settings, network path): a change may come
 *                 from them
 */
public record RunComparison(List<Pair> pairs, List<MethodResult> onlyA, List<MethodResult> onlyB, List<MethodResult> repeated,
                     List<SettingsDifference> settings, List<EnvironmentDifference> machines) {

    /** One row in both runs. */
    record Pair(MethodResult a, MethodResult b) {
        /** (B - A) / A of the median in percent; null when either row has no number. */
        Double deltaPercent() {
            Range x = Range.of(a);
            Range y = Range.of(b);
            return x == null || y == null || x.median() == 0 ? null : (y.median() - x.median()) / x.median() * 100;
        }

        /** Whether the two min..max ranges share a value; null when either row has no number or no range (one figure). */
        Boolean rangesOverlap() {
            Range x = Range.of(a);
            Range y = Range.of(b);
            return x == null || y == null || a.throughput().single() || b.throughput().single() ? null
                    : x.overlaps(y);
        }
    }

    /** A row's rate: median, min and max over rounds; MiB/s, or req/s for empty-body rows. */
    record Range(double median, double min, double max) {
        /** The two share a value: their difference is within the runs' own spread (compare's "overlap", else "apart"). */
        boolean overlaps(Range other) {
            return min <= other.max && other.min <= max;
        }

        static Range of(MethodResult r) {
            if (!r.measured()) {
                return null;
            }
            MethodResult.Throughput t = r.throughput();
            if (r.row().size() > 0) {
                return new Range(t.mibPerSec(), t.mibPerSecMin(), t.mibPerSecMax());
            }
            return t.transfersPerSec() == null ? null : new Range(t.transfersPerSec(), t.transfersPerSecMin(), t.transfersPerSecMax());
        }
    }

    public static RunComparison of(Report a, Report b) {
        // A list per key, not one row: a run may hold a row several times, and none of them may be lost.
        Map<Object, Deque<MethodResult>> byKey = new LinkedHashMap<>();
        for (MethodResult r : b.results()) {
            byKey.computeIfAbsent(key(r), k -> new ArrayDeque<>()).add(r);
        }
        Map<Object, MethodResult> repeated = new LinkedHashMap<>();  // a row repeated in both runs is named once
        repeats(a).forEach(r -> repeated.putIfAbsent(key(r), r));
        repeats(b).forEach(r -> repeated.putIfAbsent(key(r), r));
        List<Pair> pairs = new ArrayList<>();
        List<MethodResult> onlyA = new ArrayList<>();
        for (MethodResult r : a.results()) {
            Deque<MethodResult> others = byKey.get(key(r));
            MethodResult other = others == null ? null : others.poll();
            if (other == null) {
                onlyA.add(r);
            } else {
                pairs.add(new Pair(r, other));
            }
        }
        List<MethodResult> onlyB = byKey.values().stream().flatMap(Deque::stream).toList();
        return new RunComparison(pairs, onlyA, onlyB, List.copyOf(repeated.values()), SettingsDifference.between(a, b),
                EnvironmentDifference.between(a, b));
    }

    /** The first copy of each row the report has more than once. */
    private static List<MethodResult> repeats(Report report) {
        Set<Object> seen = new HashSet<>();
        Set<Object> said = new HashSet<>();
        List<MethodResult> repeats = new ArrayList<>();
        for (MethodResult r : report.results()) {
            if (!seen.add(key(r)) && said.add(key(r))) {
                repeats.add(r);
            }
        }
        return repeats;
    }

    private static Object key(MethodResult r) {
        MethodResult.Row row = r.row();
        return List.of(row.direction(), r.label(), Objects.toString(row.scenario()), row.size());
    }
}
