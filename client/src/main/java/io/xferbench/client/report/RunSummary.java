package io.xferbench.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.result.DirectionJson;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.HostTuning;
import io.xferbench.core.metrics.NetworkPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
        JsonNode env = report.environment();
        List<String> lines = new ArrayList<>();
        Provenance provenance = report.provenance();
        if (provenance != null) {
            lines.add(provenance.summary());
        }
        String direction = report.results().isEmpty() ? "" : DirectionJson.name(report.results().get(0).row().direction()) + " ";
        lines.add(direction + settings(env.path("settings")));
        ReportMerge.Clients clients = report.clients();
        StringBuilder where = new StringBuilder(clients != null ? clients(clients) : "client " + machine(env.path("client")));
        if (env.path("proxy").isObject()) {
            where.append(" · proxy ").append(machine(env.path("proxy")));
        }
        JsonNode server = env.path("server");
        where.append(" · server ").append(sameMachine(env.path("client"), server) ? "the same machine" + dataOn(server) : machine(server));
        lines.add(where.toString());
        StringBuilder how = new StringBuilder();
        NetworkPath network = report.network();
        if (network != null) {
            how.append("network ").append(network.path()).append(" mtu ").append(network.client().mtu());
        }
        JsonNode perf = env.path("client").path("perfSyscallCounting");
        if (present(perf)) {
            how.append(how.isEmpty() ? "" : " · ").append("perf ").append(text(perf));
        }
        if (!how.isEmpty()) {
            lines.add(how.toString());
        }
        List<String> tuning = tuning(env.path("client"));
        if (!tuning.isEmpty()) {
            lines.add("tuning client " + String.join(", ", tuning) + farTuning("proxy", env.path("proxy"), tuning)
                    + farTuning("server", server, tuning));
        }
        return lines;
    }

    /**
     * The proxy's or server's kernel settings where they differ from the client's: the whole set repeated made the
     * line too long for a chart's header (cut there, with the proxy's, the measured process's, not shown at all).
     */
    private static String farTuning(String side, JsonNode description, List<String> client) {
        List<String> far = tuning(description);
        if (far.isEmpty()) {
            return "";
        }
        List<String> differing = far.stream().filter(phrase -> !client.contains(phrase)).toList();
        return " · " + side + (differing.isEmpty() ? " the same" : differing.size() == far.size() ? " " + String.join(", ", differing)
                : " the same but " + String.join(", ", differing));
    }

    /** A merged run's clients: how many, on which hosts, how much of a row's span they measured at once. */
    static String clients(ReportMerge.Clients c) {
        String hosts = c.members().stream().map(m -> (m.clientId() == null ? "" : m.clientId() + " ") + "host " + m.host())
                .collect(Collectors.joining(", "));
        return c.count() + " clients merged (" + hosts + ")" + (c.overlapMinimum() == null ? ""
                : String.format(Locale.ROOT, ", measuring together >= %.0f%% of each row's span", 100 * c.overlapMinimum()));
    }

    /** The kernel settings (core.metrics.HostTuning) as phrases; empty for reports older than them. */
    static List<String> tuning(JsonNode description) {
        JsonNode tuning = description.path("tuning");
        return tuning.isObject() ? JSON.convertValue(tuning, HostTuning.class).phrases() : List.of();
    }

    /** Every setting but the long explanations, sizes in binary units. */
    static String settings(JsonNode settings) {
        List<String> shown = new ArrayList<>();
        settings.properties().forEach(e -> {
            JsonNode v = e.getValue();
            if (present(v) && !(v.isTextual() && v.textValue().length() > 40)) {
                shown.add(e.getKey() + " " + value(e.getKey(), JSON.convertValue(v, Object.class)));
            }
        });
        return String.join(", ", shown);
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
    static String machine(JsonNode m) {
        if (!present(m.path("jdk"))) {
            return "unknown";
        }
        StringBuilder b = new StringBuilder();
        b.append("JDK ").append(text(m.get("jdk"))).append(", ").append(text(m.get("kernel")));
        if (present(m.path("cpuModel"))) {
            b.append(", ").append(text(m.get("cpuModel"))).append(" x").append(text(m.get("cpus")));
        }
        if (present(m.path("cpusAllowed"))) {
            b.append(" (cpus ").append(text(m.get("cpusAllowed"))).append(')');
        }
        if (m.path("memoryBytes").isNumber() && m.get("memoryBytes").longValue() > 0) {
            b.append(", ").append(String.format(Locale.ROOT, "%.1f GiB", m.get("memoryBytes").longValue() / (double) Sizes.GiB));
        }
        b.append(dataOn(m));
        if (present(m.path("host"))) {
            b.append(", host ").append(text(m.get("host")));
        }
        return b.toString();
    }

    private static String dataOn(JsonNode description) {
        return present(description.path("fileSystem")) ? ", data on " + text(description.get("fileSystem")) : "";
    }

    /** Same host, JDK, kernel and CPUs: said once instead of twice. */
    private static boolean sameMachine(JsonNode x, JsonNode y) {
        if (!x.isObject() || !y.isObject()) {
            return false;
        }
        for (String key : List.of("host", "jdk", "kernel", "cpuModel", "cpus", "cpusAllowed", "memoryBytes")) {
            if (!text(x.get(key)).equals(text(y.get(key)))) {
                return false;
            }
        }
        return true;
    }

    /** Neither absent nor JSON null. */
    private static boolean present(JsonNode v) {
        return v != null && !v.isMissingNode() && !v.isNull();
    }

    /** A field as a reader sees it: text unquoted, anything else as JSON; "null" when absent. */
    private static String text(JsonNode v) {
        return v == null || v.isNull() || v.isMissingNode() ? "null" : v.isTextual() ? v.textValue() : v.toString();
    }
}
