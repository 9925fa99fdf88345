package io.xferbench.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.NetworkPath;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Renders a {@link Report} as a text table, JSON (schema in docs/results.md) or CSV. */
final class ReportWriter {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportWriter() {
    }

    static String render(Report report, String format) throws IOException {
        return switch (format) {
            case "json" -> JSON.writeValueAsString(report) + "\n";
            case "csv" -> csv(report);
            case "table" -> table(report);
            default -> throw new IllegalArgumentException("unknown format " + format + " (table, json, csv)");
        };
    }

    static String table(Report report) {
        StringWriter out = new StringWriter();
        PrintWriter p = new PrintWriter(out);
        Map<String, Object> env = report.environment();
        p.println("xferbench " + env.getOrDefault("settings", ""));
        p.println("client: " + env.getOrDefault("client", ""));
        if (env.containsKey("proxy")) {
            p.println("proxy: " + env.get("proxy"));
        }
        p.println("server: " + env.getOrDefault("server", ""));
        NetworkPath network = report.network();
        if (network != null) {
            p.println("network: " + network.path() + "; client " + network.client().summary()
                    + (network.server() == null ? "" : "; " + side(report.results()) + " " + network.server().summary()));
        }
        p.println();
        // Rows that move bytes first, then empty-body exchanges; proxy rows one section per scenario.
        Map<String, List<MethodResult>> bulk = new LinkedHashMap<>();
        Map<String, List<MethodResult>> exchanges = new LinkedHashMap<>();
        for (MethodResult r : report.results()) {
            (r.size() > 0 ? bulk : exchanges).computeIfAbsent(String.valueOf(r.scenario()), k -> new ArrayList<>()).add(r);
        }
        boolean first = true;
        for (List<MethodResult> rows : bulk.values()) {
            first = heading(p, rows.get(0).scenario(), first);
            throughput(p, rows);
        }
        for (List<MethodResult> rows : exchanges.values()) {
            first = heading(p, rows.get(0).scenario(), first);
            exchanges(p, rows);
        }
        List<MethodResult> uploads = report.results().stream().filter(r -> r.uploadPhasesMillis() != null).toList();
        if (!uploads.isEmpty()) {
            p.println();
            uploadPhases(p, uploads);
        }
        if (first) {
            throughput(p, List.of());
        }
        if (report.results().stream().anyMatch(r -> Boolean.TRUE.equals(r.shared()))) {
            p.println();
            p.println("shared: other clients' connections worked in the measured process during that row's window; its CPU, "
                    + "context switch and syscall columns include their work.");
        }
        p.flush();
        return out.toString();
    }

    /** A blank line between sections, and what a proxy scenario's rows are; returns false (no longer the first). */
    private static boolean heading(PrintWriter p, String scenario, boolean first) {
        if (!first) {
            p.println();
        }
        if (scenario != null) {
            p.println(switch (scenario) {
                case "small" -> "proxy, small: empty-body exchanges (0-byte downloads) on kept-alive connections";
                case "connect" -> "proxy, connect: a new connection per empty-body exchange (connect, PROXY frame, exchange, close)";
                case "bulk" -> "proxy, bulk: bodies downloaded through the proxy on kept-alive connections";
                default -> "scenario " + scenario;
            });
        }
        return false;
    }

    /** Whose CPU and syscalls the far-side columns are: the proxy's for proxy rows, else the server's. */
    private static String side(List<MethodResult> rows) {
        return !rows.isEmpty() && rows.stream().allMatch(r -> "proxy".equals(r.direction())) ? "proxy" : "server";
    }

    /** Rows that move bytes: MiB/s, latency in ms, CPU and syscalls per GiB. */
    private static void throughput(PrintWriter p, List<MethodResult> rows) {
        String side = side(rows);
        p.println(String.format(Locale.ROOT, "%-15s %-9s %-24s %5s %8s %8s %15s %15s %12s %11s  %-10s %s",
                "method", "size", "MiB/s median [min..max]", "xfers", "p50 ms", "p99 ms", "client usr/sys",
                side + " usr/sys", "syscalls/GiB", "ctx sw/GiB", "verified", side + " syscalls/GiB by name"));
        p.println(String.format(Locale.ROOT, "%-15s %-9s %-24s %5s %8s %8s %15s %15s %12s %11s  %-10s", "", "", "", "", "", "",
                "CPU s/GiB", "CPU s/GiB", "", side, ""));
        for (MethodResult r : rows) {
            String size = Sizes.format(r.size());
            if (unmeasured(p, r, size)) {
                continue;
            }
            double gib = r.bytes() / (double) Sizes.GiB;
            String rate = String.format(Locale.ROOT, "%.0f [%.0f..%.0f]", r.mibPerSec(), r.mibPerSecMin(), r.mibPerSecMax());
            String syscalls = r.syscallsPerGiB() == null ? "n/a" : String.format(Locale.ROOT, "%.0f", r.syscallsPerGiB());
            p.println(String.format(Locale.ROOT, "%-15s %-9s %-24s %5d %8.2f %8.2f %15s %15s %12s %11s  %-10s %s",
                    r.label(), size, rate, r.transfers(), r.latencyMillis().get("p50"), r.latencyMillis().get("p99"),
                    cpu(r.clientCpu()), cpu(r.serverCpu()), syscalls, switches(r.serverCpu(), "contextSwitchesPerGiB", "%.0f"),
                    verified(r), byName(r, gib, "%.0f")));
        }
    }

    /** Empty-body request/response rows: req/s, latency in µs, CPU µs and syscalls per request. */
    private static void exchanges(PrintWriter p, List<MethodResult> rows) {
        String side = side(rows);
        p.println(String.format(Locale.ROOT, "%-15s %-9s %-24s %7s %8s %8s %15s %15s %12s %11s  %-10s %s",
                "method", "size", "req/s median [min..max]", "reqs", "p50 us", "p99 us", "client usr/sys",
                side + " usr/sys", "syscalls/req", "ctx sw/req", "verified", side + " syscalls/req by name"));
        p.println(String.format(Locale.ROOT, "%-15s %-9s %-24s %7s %8s %8s %15s %15s %12s %11s  %-10s", "", "", "", "", "", "",
                "CPU us/req", "CPU us/req", "", side, ""));
        for (MethodResult r : rows) {
            String size = Sizes.format(r.size());
            if (unmeasured(p, r, size)) {
                continue;
            }
            String rate = r.transfersPerSec() == null ? "n/a"
                    : String.format(Locale.ROOT, "%.0f [%.0f..%.0f]", r.transfersPerSec(), r.transfersPerSecMin(), r.transfersPerSecMax());
            String syscalls = r.syscallsPerTransfer() == null ? "n/a" : String.format(Locale.ROOT, "%.2f", r.syscallsPerTransfer());
            p.println(String.format(Locale.ROOT, "%-15s %-9s %-24s %7d %8.1f %8.1f %15s %15s %12s %11s  %-10s %s",
                    r.label(), size, rate, r.transfers(), r.latencyMillis().get("p50") * 1000, r.latencyMillis().get("p99") * 1000,
                    cpuPerTransfer(r.clientCpu()), cpuPerTransfer(r.serverCpu()), syscalls,
                    switches(r.serverCpu(), "contextSwitchesPerTransfer", "%.2f"), verified(r), byName(r, r.transfers(), "%.2f")));
        }
    }

    /**
     * Where an upload's time goes on the server (medians per transfer): receiving the body into the temp file, re-reading
     * it for the CRC32C (zero-copy receivers only), fsync (--fsync only). The client's latency includes all three.
     */
    private static void uploadPhases(PrintWriter p, List<MethodResult> rows) {
        p.println(String.format(Locale.ROOT, "%-15s %-9s %16s %15s %14s", "upload phases", "size", "receive p50 ms",
                "verify p50 ms", "fsync p50 ms"));
        for (MethodResult r : rows) {
            Map<String, Double> m = r.uploadPhasesMillis();
            p.println(String.format(Locale.ROOT, "%-15s %-9s %16s %15s %14s", r.label(), Sizes.format(r.size()),
                    millis(m.get("receiveP50")), millis(m.get("verifyP50")), millis(m.get("fsyncP50"))));
        }
    }

    /** "yes", or "yes shared" when the far side's columns include other clients' work; "NO" unverified. */
    private static String verified(MethodResult r) {
        return (r.verified() ? "yes" : "NO") + (Boolean.TRUE.equals(r.shared()) ? " shared" : "");
    }

    private static String switches(Map<String, Object> cpu, String key, String format) {
        Object v = cpu == null ? null : cpu.get(key);
        return v == null ? "n/a" : String.format(Locale.ROOT, format, (Double) v);
    }

    private static String millis(Double ms) {
        return ms == null ? "-" : String.format(Locale.ROOT, "%.2f", ms);
    }

    /** Prints a skipped or failed row; false for a measured one. */
    private static boolean unmeasured(PrintWriter p, MethodResult r, String size) {
        if (r.skipped() != null) {
            p.println(String.format(Locale.ROOT, "%-15s %-9s skipped: %s", r.label(), size, r.skipped()));
            return true;
        }
        if (r.error() != null) {
            p.println(String.format(Locale.ROOT, "%-15s %-9s FAILED: %s", r.label(), size, r.error()));
            return true;
        }
        return false;
    }

    /** The five largest syscall counts divided by {@code per} (GiB moved, or requests). */
    private static String byName(MethodResult r, double per, String format) {
        if (r.syscalls() == null) {
            return "n/a: " + r.syscallsUnavailable();
        }
        return r.syscalls().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(5)
                .map(e -> e.getKey() + "=" + String.format(Locale.ROOT, format, e.getValue() / per))
                .collect(Collectors.joining(" "))
                + (r.ioUringSubmissions() != null && r.ioUringSubmissions() > 0
                ? String.format(Locale.ROOT, " (io_uring sqes=" + format + ")", r.ioUringSubmissions() / per) : "");
    }

    private static String cpuPerTransfer(Map<String, Object> cpu) {
        if (cpu == null || cpu.get("userMicrosPerTransfer") == null) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.1f/%.1f", (Double) cpu.get("userMicrosPerTransfer"), (Double) cpu.get("systemMicrosPerTransfer"));
    }

    private static String cpu(Map<String, Object> cpu) {
        if (cpu == null || cpu.get("userSecondsPerGiB") == null) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.3f/%.3f", (Double) cpu.get("userSecondsPerGiB"), (Double) cpu.get("systemSecondsPerGiB"));
    }

    static String csv(Report report) {
        StringBuilder b = new StringBuilder();
        b.append("direction,method,size,bytes,transfers,seconds,mibPerSec,mibPerSecMin,mibPerSecMax,latencyP50Ms,latencyP99Ms,"
                + "clientUserSecPerGiB,clientSysSecPerGiB,serverUserSecPerGiB,serverSysSecPerGiB,syscallsPerGiB,verified,skipped,error,"
                + "transfersPerSec,syscallsPerTransfer,relayBuffer,measuredProcess,"
                + "serverContextSwitchesPerGiB,serverContextSwitchesPerTransfer,shared,sharedWithConnections\n");
        for (MethodResult r : report.results()) {
            b.append(String.join(",", r.direction(), r.method(), Long.toString(r.size()), Long.toString(r.bytes()),
                    Integer.toString(r.transfers()), num(r.seconds()), num(r.mibPerSec()), num(r.mibPerSecMin()),
                    num(r.mibPerSecMax()), num(r.latencyMillis().get("p50")), num(r.latencyMillis().get("p99")),
                    cpuField(r.clientCpu(), "userSecondsPerGiB"), cpuField(r.clientCpu(), "systemSecondsPerGiB"),
                    cpuField(r.serverCpu(), "userSecondsPerGiB"), cpuField(r.serverCpu(), "systemSecondsPerGiB"),
                    num(r.syscallsPerGiB()), Boolean.toString(r.verified()), quote(r.skipped()), quote(r.error()),
                    num(r.transfersPerSec()), num(r.syscallsPerTransfer()),
                    r.relayBuffer() == null ? "" : Integer.toString(r.relayBuffer()), r.measuredProcess() == null ? "" : r.measuredProcess(),
                    cpuField(r.serverCpu(), "contextSwitchesPerGiB"), cpuField(r.serverCpu(), "contextSwitchesPerTransfer"),
                    r.shared() == null ? "" : r.shared().toString(),
                    r.sharedWithConnections() == null ? "" : r.sharedWithConnections().toString()));
            b.append('\n');
        }
        return b.toString();
    }

    private static String cpuField(Map<String, Object> cpu, String key) {
        return cpu == null ? "" : num((Double) cpu.get(key));
    }

    private static String num(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.6g", d);
    }

    private static String quote(String s) {
        return s == null ? "" : "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
