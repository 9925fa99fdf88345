package io.xferbench.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Two runs' rows side by side, matched by direction, method (with its relay buffer), proxy scenario and size. Rows that
 * move bytes are compared in MiB/s, empty-body exchanges in req/s: the change of the median, and whether the two
 * min..max ranges overlap (when they do, the difference is within the runs' own spread).
 *
 * @param pairs rows found in both runs, in A's order
 * @param onlyA rows only the first run has
 * @param onlyB rows only the second run has
 */
record RunComparison(List<Pair> pairs, List<MethodResult> onlyA, List<MethodResult> onlyB) {

    /** One row in both runs. */
    record Pair(MethodResult a, MethodResult b) {
        /** (B - A) / A of the median in percent; null when either row has no number. */
        Double deltaPercent() {
            Range x = Range.of(a);
            Range y = Range.of(b);
            return x == null || y == null || x.median() == 0 ? null : (y.median() - x.median()) / x.median() * 100;
        }

        /** Whether the two min..max ranges share a value; null when either row has no number. */
        Boolean rangesOverlap() {
            Range x = Range.of(a);
            Range y = Range.of(b);
            return x == null || y == null ? null : x.min() <= y.max() && y.min() <= x.max();
        }
    }

    /** A row's rate: median, min and max over rounds; MiB/s, or req/s for empty-body rows. */
    record Range(double median, double min, double max) {
        static Range of(MethodResult r) {
            if (r.skipped() != null || r.error() != null) {
                return null;
            }
            MethodResult.Throughput t = r.throughput();
            if (r.row().size() > 0) {
                return new Range(t.mibPerSec(), t.mibPerSecMin(), t.mibPerSecMax());
            }
            return t.transfersPerSec() == null ? null : new Range(t.transfersPerSec(), t.transfersPerSecMin(), t.transfersPerSecMax());
        }
    }

    static RunComparison of(Report a, Report b) {
        Map<Object, MethodResult> byKey = new LinkedHashMap<>();
        for (MethodResult r : b.results()) {
            byKey.put(key(r), r);
        }
        List<Pair> pairs = new ArrayList<>();
        List<MethodResult> onlyA = new ArrayList<>();
        for (MethodResult r : a.results()) {
            MethodResult other = byKey.remove(key(r));
            if (other == null) {
                onlyA.add(r);
            } else {
                pairs.add(new Pair(r, other));
            }
        }
        return new RunComparison(pairs, onlyA, List.copyOf(byKey.values()));
    }

    private static Object key(MethodResult r) {
        MethodResult.Row row = r.row();
        return List.of(row.direction(), r.label(), Objects.toString(row.scenario()), row.size());
    }
}
