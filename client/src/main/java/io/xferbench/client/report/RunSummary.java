package io.xferbench.client.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.result.DirectionJson;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.HostTuning;
import io.xferbench.core.metrics.NetworkPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A run's settings and environment in a few human lines (sizes in KiB/MiB, not bytes): under chart titles and above
 * Markdown and HTML reports, where a raw map would not be read.
 */
public final class RunSummary {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunSummary() {
    }

    public static List<String> lines(Report report) {
        Map<String, Object> env = report.environment();
        List<String> lines = new ArrayList<>();
        Provenance provenance = report.provenance();
        if (provenance != null) {
            lines.add(provenance.summary());
        }
        String direction = report.results().isEmpty() ? "" : DirectionJson.name(report.results().get(0).row().direction()) + " ";
        lines.add(direction + settings(env.get("settings")));
        StringBuilder where = new StringBuilder(env.get("clients") != null ? clients(env.get("clients")) : "client " + machine(env.get("client")));
        if (env.get("proxy") instanceof Map<?, ?>) {
            where.append(" · proxy ").append(machine(env.get("proxy")));
        }
        Object server = env.get("server");
        where.append(" · server ").append(sameMachine(env.get("client"), server) ? "the same machine" + dataOn(server) : machine(server));
        lines.add(where.toString());
        StringBuilder how = new StringBuilder();
        NetworkPath network = report.network();
        if (network != null) {
            how.append("network ").append(network.path()).append(" mtu ").append(network.client().mtu());
        }
        if (env.get("client") instanceof Map<?, ?> client && client.get("perfSyscallCounting") != null) {
            how.append(how.isEmpty() ? "" : " · ").append("perf ").append(client.get("perfSyscallCounting"));
        }
        if (!how.isEmpty()) {
            lines.add(how.toString());
        }
        List<String> tuning = tuning(env.get("client"));
        if (!tuning.isEmpty()) {
            lines.add("tuning client " + String.join(", ", tuning) + farTuning("proxy", env.get("proxy"), tuning)
                    + farTuning("server", server, tuning));
        }
        return lines;
    }

    /**
     * The proxy's or server's kernel settings where they differ from the client's: the whole set repeated made the
     * line too long for a chart's header (cut there, with the proxy's, the measured process's, not shown at all).
     */
    private static String farTuning(String side, Object description, List<String> client) {
        List<String> far = tuning(description);
        if (far.isEmpty()) {
            return "";
        }
        List<String> differing = far.stream().filter(phrase -> !client.contains(phrase)).toList();
        return " · " + side + (differing.isEmpty() ? " the same" : differing.size() == far.size() ? " " + String.join(", ", differing)
                : " the same but " + String.join(", ", differing));
    }

    /** A merged run's clients: how many, on which hosts, how much of a row's span they measured at once. */
    static String clients(Object clients) {
        ReportMerge.Clients c = JSON.convertValue(clients, ReportMerge.Clients.class);
        String hosts = c.members().stream().map(m -> (m.clientId() == null ? "" : m.clientId() + " ") + "host " + m.host())
                .collect(Collectors.joining(", "));
        return c.count() + " clients merged (" + hosts + ")" + (c.overlapMinimum() == null ? ""
                : String.format(Locale.ROOT, ", measuring together >= %.0f%% of each row's span", 100 * c.overlapMinimum()));
    }

    /** The kernel settings (core.metrics.HostTuning) as phrases; empty for reports older than them. */
    static List<String> tuning(Object description) {
        if (!(description instanceof Map<?, ?> m) || m.get("tuning") == null) {
            return List.of();
        }
        // Just measured it is the record, read back from JSON a map.
        return JSON.convertValue(m.get("tuning"), HostTuning.class).phrases();
    }

    /** Every setting but the long explanations, sizes in binary units. */
    static String settings(Object settings) {
        if (!(settings instanceof Map<?, ?> m)) {
            return "";
        }
        return m.entrySet().stream()
                .filter(e -> e.getValue() != null && !(e.getValue() instanceof String s && s.length() > 40))
                .map(e -> e.getKey() + " " + value(String.valueOf(e.getKey()), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    /** A setting's value for a reader: sizes and buffers (a number or a list of them) in binary units. */
    static String value(String key, Object v) {
        boolean bytes = key.toLowerCase(Locale.ROOT).contains("size") || key.toLowerCase(Locale.ROOT).contains("buffer");
        if (bytes && v instanceof Number n) {
            return Sizes.format(n.longValue());
        }
        if (bytes && v instanceof List<?> list) {
            return list.stream().map(x -> x instanceof Number n ? Sizes.format(n.longValue()) : String.valueOf(x))
                    .collect(Collectors.joining(","));
        }
        return String.valueOf(v);
    }

    /** JDK, kernel, CPU model and count (and which CPUs, when pinned), memory, host. */
    static String machine(Object description) {
        if (!(description instanceof Map<?, ?> m) || m.get("jdk") == null) {
            return "unknown";
        }
        StringBuilder b = new StringBuilder();
        b.append("JDK ").append(m.get("jdk")).append(", ").append(m.get("kernel"));
        if (m.get("cpuModel") != null) {
            b.append(", ").append(m.get("cpuModel")).append(" x").append(m.get("cpus"));
        }
        if (m.get("cpusAllowed") != null) {
            b.append(" (cpus ").append(m.get("cpusAllowed")).append(')');
        }
        if (m.get("memoryBytes") instanceof Number mem && mem.longValue() > 0) {
            b.append(", ").append(String.format(Locale.ROOT, "%.1f GiB", mem.longValue() / (double) Sizes.GiB));
        }
        b.append(dataOn(m));
        if (m.get("host") != null) {
            b.append(", host ").append(m.get("host"));
        }
        return b.toString();
    }

    private static String dataOn(Object description) {
        return description instanceof Map<?, ?> m && m.get("fileSystem") != null ? ", data on " + m.get("fileSystem") : "";
    }

    /** Same host, JDK, kernel and CPUs: said once instead of twice. */
    private static boolean sameMachine(Object a, Object b) {
        if (!(a instanceof Map<?, ?> x) || !(b instanceof Map<?, ?> y)) {
            return false;
        }
        for (String key : List.of("host", "jdk", "kernel", "cpuModel", "cpus", "cpusAllowed", "memoryBytes")) {
            if (!String.valueOf(x.get(key)).equals(String.valueOf(y.get(key)))) {
                return false;
            }
        }
        return true;
    }
}
