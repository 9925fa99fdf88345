package io.xferbench.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
public record SettingsDifference(String key, JsonNode a, JsonNode b) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The settings of a report; empty when it has none (reports older than the field, hand-made ones). JSON values by name:
     * two arbitrary reports (commands, versions) have different settings, so no record fits both.
     */
    static Map<String, JsonNode> of(Report report) {
        Map<String, JsonNode> settings = new LinkedHashMap<>();
        if (report.environment().get("settings") instanceof com.fasterxml.jackson.databind.node.ObjectNode m) {
            m.properties().forEach(e -> settings.put(e.getKey(), e.getValue()));
        }
        return settings;
    }

    /** Every setting either report has whose values differ, in the first report's order, then the second's. */
    public static List<SettingsDifference> between(Report first, Report second) {
        Map<String, JsonNode> a = of(first);
        Map<String, JsonNode> b = of(second);
        Set<String> keys = new LinkedHashSet<>(a.keySet());
        keys.addAll(b.keySet());
        List<SettingsDifference> differences = new ArrayList<>();
        for (String key : keys) {
            // A number may be an int in one report and a long in the other: compare their JSON text.
            if (!Objects.equals(String.valueOf(a.get(key)), String.valueOf(b.get(key)))) {
                differences.add(new SettingsDifference(key, a.get(key), b.get(key)));
            }
        }
        return differences;
    }

    /** {@code concurrency: 1 vs 4}, {@code sizes: 16MiB vs 8MiB} (not bytes); an absent value is written {@code (none)}. */
    public String describe() {
        return key + ": " + value(a) + " vs " + value(b);
    }

    private String value(JsonNode v) {
        return v == null ? "(none)" : RunSummary.value(key, JSON.convertValue(v, Object.class));
    }
}
