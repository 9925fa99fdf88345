package io.xferbench.client.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.report.Report;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where two reports' machines differ (JDK, kernel, CPUs, memory, host, file system, kernel settings, network path) on
 * the client, proxy or server side: compare said only how the runs' settings differed, so two runs on different JDKs or
 * kernels were put side by side as if only the code had changed.
 *
 * @param key what differs, e.g. {@code server jdk} or {@code client tuning tcpCongestionControl}
 * @param a   its value in the first report; null when absent
 * @param b   its value in the second report; null when absent
 */
record EnvironmentDifference(String key, Object a, Object b) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SIDES = List.of("client", "proxy", "server");
    private static final List<String> MACHINE = List.of("jdk", "jvm", "kernel", "cpuModel", "cpus", "cpusAllowed", "memoryBytes",
            "host", "fileSystem", "fileSystemDevice", "perfSyscallCounting", "kernelTls");

    /** Every listed field either report has whose values differ; a side neither report has is left out. */
    static List<EnvironmentDifference> between(Report first, Report second) {
        Map<?, ?> a = tree(first);
        Map<?, ?> b = tree(second);
        List<EnvironmentDifference> differences = new ArrayList<>();
        for (String side : SIDES) {
            machine(differences, side + " ", a.get(side) instanceof Map<?, ?> m ? m : Map.of(),
                    b.get(side) instanceof Map<?, ?> m ? m : Map.of());
        }
        add(differences, "network path", path(a), path(b));
        return differences;
    }

    /**
     * Where two load reports' environments differ: one machine each (the servers ran beside the load), and the version
     * of each outside tool it drove (nginx, wrk).
     */
    static List<EnvironmentDifference> betweenLoads(JsonNode first, JsonNode second) {
        Map<?, ?> a = JSON.convertValue(first, Map.class);
        Map<?, ?> b = JSON.convertValue(second, Map.class);
        List<EnvironmentDifference> differences = new ArrayList<>();
        machine(differences, "", a, b);
        for (String tool : List.of("nginx", "wrk")) {
            add(differences, tool, a.get(tool), b.get(tool));
        }
        return differences;
    }

    /** The listed machine fields and every kernel setting, each key starting with {@code prefix}. */
    private static void machine(List<EnvironmentDifference> into, String prefix, Map<?, ?> x, Map<?, ?> y) {
        for (String field : MACHINE) {
            add(into, prefix + field, x.get(field), y.get(field));
        }
        Map<?, ?> tx = tuning(x);
        Map<?, ?> ty = tuning(y);
        for (String field : union(tx, ty)) {
            add(into, prefix + "tuning " + field, tx.get(field), ty.get(field));
        }
    }

    /** {@code server jdk: Temurin 21 vs Temurin 25}; an absent value is written {@code (none)}. */
    String describe() {
        return key + ": " + (a == null ? "(none)" : a) + " vs " + (b == null ? "(none)" : b);
    }

    private static void add(List<EnvironmentDifference> into, String key, Object a, Object b) {
        // Read back from JSON a number may be Integer where a fresh report has Long: compare their text.
        if (!Objects.equals(a == null ? null : String.valueOf(a), b == null ? null : String.valueOf(b))) {
            into.add(new EnvironmentDifference(key, a, b));
        }
    }

    /** The environment as JSON reads it back (a fresh report holds records, such as HostTuning, where a file has maps). */
    private static Map<?, ?> tree(Report report) {
        return JSON.convertValue(report.environment(), Map.class);
    }

    private static Map<?, ?> tuning(Map<?, ?> side) {
        return side.get("tuning") instanceof Map<?, ?> m ? m : Map.of();
    }

    private static List<String> union(Map<?, ?> x, Map<?, ?> y) {
        List<String> keys = new ArrayList<>();
        x.keySet().forEach(k -> keys.add(String.valueOf(k)));
        y.keySet().stream().map(String::valueOf).filter(k -> !keys.contains(k)).forEach(keys::add);
        return keys;
    }

    private static Object path(Map<?, ?> environment) {
        return environment.get("network") instanceof Map<?, ?> n ? n.get("path") : null;
    }
}
