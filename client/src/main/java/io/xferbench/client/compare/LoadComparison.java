package io.xferbench.client.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.xferbench.client.load.report.Repeats;
import io.xferbench.client.report.SettingsDifference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Two load reports' rows side by side, matched by server, model, client, protocol, operation, file size, concurrency
 * and method asked. Requests/s as measured, or, with a reference row, as each round's ratio to that row's same round of
 * the same run: both runs' machines drift (a whole run a few percent slower), and a ratio within one round cancels that.
 *
 * @param reference the row every rate is divided by, round by round, or null for plain requests/s
 * @param pairs     rows found in both runs, in A's order
 * @param onlyA     rows only the first run has
 * @param onlyB     rows only the second run has
 * @param settings  the settings in which the runs differ
 * @param machines  where the runs' machines (and nginx's or wrk's versions) differ
 */
public record LoadComparison(LoadRow reference, List<Pair> pairs, List<LoadRow> onlyA, List<LoadRow> onlyB, List<SettingsDifference> settings,
                      List<EnvironmentDifference> machines) {

    /** What {@code --relative-to nginx} stands for: the load report's own reference, nginx's sendfile row. */
    static final String NGINX = "nginx";

    /**
     * One row in both runs.
     *
     * @param rateA its rate in A (requests/s, or ratios to the reference), or null when it has none
     * @param rateB the same in B
     */
    record Pair(LoadRow a, LoadRow b, RunComparison.Range rateA, RunComparison.Range rateB) {
        /** (B - A) / A of the median rates in percent; null when either has none. */
        Double deltaPercent() {
            return rateA == null || rateB == null ? null : change(rateA.median(), rateB.median());
        }

        /** Whether the min..max ranges share a value; null when either has no rate or a single round only. */
        Boolean rangesOverlap() {
            return rateA == null || rateB == null || single(a) || single(b) ? null : rateA.overlaps(rateB);
        }

        Double p99ChangePercent() {
            return a.measured() && b.measured() ? change(a.latencyP99Millis(), b.latencyP99Millis()) : null;
        }

        Double serverCpuChangePercent() {
            return a.measured() && b.measured() ? change(a.serverCpuMicrosPerRequest(), b.serverCpuMicrosPerRequest()) : null;
        }

        /** The answers named another method in B than in A: the same row may not have measured the same code path. */
        boolean methodRunDiffers() {
            return a.measured() && b.measured() && !Objects.equals(a.methodRun(), b.methodRun());
        }

        private static boolean single(LoadRow r) {
            return r.rounds().size() < 2;
        }
    }

    public static LoadComparison of(LoadRun a, LoadRun b, String relativeTo) {
        // A list per key, not one row: a run may hold a row twice (or once per method asked), and none may be lost.
        Map<Object, List<LoadRow>> byKey = new LinkedHashMap<>();
        b.rows().forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        List<LoadRow[]> both = new ArrayList<>();
        List<LoadRow> onlyA = new ArrayList<>();
        for (LoadRow r : a.rows()) {
            List<LoadRow> others = byKey.getOrDefault(r.key(), new ArrayList<>());
            LoadRow other = others.stream().filter(r::sameMethod).findFirst().orElse(null);
            if (other == null) {
                onlyA.add(r);
            } else {
                others.remove(other);
                both.add(new LoadRow[] {r, other});
            }
        }
        List<LoadRow> onlyB = byKey.values().stream().flatMap(List::stream).toList();
        LoadRow[] reference = relativeTo == null ? null : reference(both, relativeTo);
        List<Pair> pairs = both.stream().map(p -> new Pair(p[0], p[1], rate(p[0], reference == null ? null : reference[0]),
                rate(p[1], reference == null ? null : reference[1]))).toList();
        return new LoadComparison(reference == null ? null : reference[0], pairs, onlyA, onlyB, settings(a.settings(), b.settings()),
                EnvironmentDifference.betweenLoads(a.environment(), b.environment()));
    }

    /**
     * The row {@code name} names in both runs: its name as compare writes it, or words of it ({@code netty-epoll http});
     * {@code nginx} alone is nginx's sendfile row. None, several, or one without figures is a usage error.
     */
    private static LoadRow[] reference(List<LoadRow[]> both, String name) {
        List<String> words = name.strip().equals(NGINX) ? List.of(NGINX, "sendfile") : words(name);
        List<LoadRow[]> exact = both.stream().filter(p -> p[0].name().equals(name.strip())).toList();
        List<LoadRow[]> found = !exact.isEmpty() ? exact : both.stream().filter(p -> words(p[0].name()).containsAll(words)).toList();
        if (found.isEmpty() || words.isEmpty()) {
            throw new IllegalArgumentException("--relative-to " + name + ": no such row in both runs (name one as compare prints it, "
                    + "or words of it, e.g. nginx or 'netty-epoll http')");
        }
        if (found.size() > 1) {
            throw new IllegalArgumentException("--relative-to " + name + " names " + found.size() + " rows ("
                    + String.join("; ", found.stream().map(p -> p[0].name()).toList()) + "): name one");
        }
        LoadRow[] pair = found.get(0);
        if (!pair[0].measured() || !pair[1].measured()) {
            throw new IllegalArgumentException("--relative-to " + name + ": " + pair[0].name() + " has no requests/s in "
                    + (pair[0].measured() ? "B" : "A"));
        }
        return pair;
    }

    private static List<String> words(String s) {
        return Arrays.stream(s.strip().split("[\\s,()]+")).filter(w -> !w.isEmpty()).toList();
    }

    /**
     * The row's requests/s over its rounds, or, with a reference, each round's requests/s over the reference's in the
     * same round; null when there is none (skipped, no answer, or not as many rounds as the reference).
     */
    private static RunComparison.Range rate(LoadRow row, LoadRow reference) {
        if (!row.measured()) {
            return null;
        }
        List<Double> values = row.rounds();
        if (reference != null) {
            List<Double> of = reference.rounds();
            if (of.size() != values.size()) {
                return null;
            }
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                ratios.add(values.get(i) / of.get(i));
            }
            values = ratios;
        }
        // The median as the load report takes it: the lower middle, the window it shows.
        Repeats.Spread s = Repeats.Spread.of(values);
        return new RunComparison.Range(s.median(), s.min(), s.max());
    }

    private static Double change(Double a, Double b) {
        return a == null || b == null || a == 0 ? null : (b - a) / a * 100;
    }

    /** Every setting either run has whose values differ, in A's order, then B's (their JSON text compared). */
    private static List<SettingsDifference> settings(JsonNode a, JsonNode b) {
        Set<String> keys = new LinkedHashSet<>();
        a.fieldNames().forEachRemaining(keys::add);
        b.fieldNames().forEachRemaining(keys::add);
        List<SettingsDifference> differences = new ArrayList<>();
        for (String key : keys) {
            if (!Objects.equals(String.valueOf(a.get(key)), String.valueOf(b.get(key)))) {
                differences.add(new SettingsDifference(key, a.get(key), b.get(key)));
            }
        }
        return differences;
    }
}
