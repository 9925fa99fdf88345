package io.xferbench.client.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where two reports' {@code environment.settings} (server, sizes, repeat, concurrency, verify, cache, ...) differ: runs
 * whose settings differ measured different things, which compare must say and merge must refuse.
 *
 * @param key the setting
 * @param a   its value in the first report; null when absent
 * @param b   its value in the second report; null when absent
 */
public record SettingsDifference(String key, Object a, Object b) {

    /** The settings of a report; empty when it has none (reports older than the field, hand-made ones). */
    static Map<String, Object> of(Report report) {
        Map<String, Object> settings = new LinkedHashMap<>();
        if (report.environment().get("settings") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> settings.put(String.valueOf(k), v));
        }
        return settings;
    }

    /** Every setting either report has whose values differ, in the first report's order, then the second's. */
    public static List<SettingsDifference> between(Report first, Report second) {
        Map<String, Object> a = of(first);
        Map<String, Object> b = of(second);
        Set<String> keys = new LinkedHashSet<>(a.keySet());
        keys.addAll(b.keySet());
        List<SettingsDifference> differences = new ArrayList<>();
        for (String key : keys) {
            // JSON read back gives Integer where a fresh report has Long, lists for lists: compare their text.
            if (!Objects.equals(String.valueOf(a.get(key)), String.valueOf(b.get(key)))) {
                differences.add(new SettingsDifference(key, a.get(key), b.get(key)));
            }
        }
        return differences;
    }

    /** {@code concurrency: 1 vs 4}, {@code sizes: 16MiB vs 8MiB} (not bytes); an absent value is written {@code (none)}. */
    public String describe() {
        return key + ": " + (a == null ? "(none)" : RunSummary.value(key, a)) + " vs " + (b == null ? "(none)" : RunSummary.value(key, b));
    }
}
