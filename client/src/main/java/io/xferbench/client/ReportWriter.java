package io.xferbench.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.core.Sizes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
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
        p.println("server: " + env.getOrDefault("server", ""));
        p.println();
        String header = String.format(Locale.ROOT, "%-15s %-9s %-24s %5s %8s %8s %15s %15s %12s  %-9s %s",
                "method", "size", "MiB/s median [min..max]", "xfers", "p50 ms", "p99 ms", "client usr/sys",
                "server usr/sys", "syscalls/GiB", "verified", "server syscalls/GiB by name");
        p.println(header);
        p.println(String.format(Locale.ROOT, "%-15s %-9s %-24s %5s %8s %8s %15s %15s %12s  %-9s", "", "", "", "", "", "",
                "CPU s/GiB", "CPU s/GiB", "", ""));
        for (MethodResult r : report.results()) {
            String size = Sizes.format(r.size());
            if (r.skipped() != null) {
                p.println(String.format(Locale.ROOT, "%-15s %-9s skipped: %s", r.method(), size, r.skipped()));
                continue;
            }
            if (r.error() != null) {
                p.println(String.format(Locale.ROOT, "%-15s %-9s FAILED: %s", r.method(), size, r.error()));
                continue;
            }
            double gib = r.bytes() / (double) Sizes.GiB;
            String rate = String.format(Locale.ROOT, "%.0f [%.0f..%.0f]", r.mibPerSec(), r.mibPerSecMin(), r.mibPerSecMax());
            String syscalls = r.syscallsPerGiB() == null ? "n/a" : String.format(Locale.ROOT, "%.0f", r.syscallsPerGiB());
            String byName = r.syscalls() == null ? "n/a: " + r.syscallsUnavailable()
                    : r.syscalls().entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(5)
                    .map(e -> e.getKey() + "=" + String.format(Locale.ROOT, "%.0f", e.getValue() / gib))
                    .collect(Collectors.joining(" "))
                    + (r.ioUringSubmissions() != null && r.ioUringSubmissions() > 0
                    ? String.format(Locale.ROOT, " (io_uring sqes=%.0f)", r.ioUringSubmissions() / gib) : "");
            p.println(String.format(Locale.ROOT, "%-15s %-9s %-24s %5d %8.2f %8.2f %15s %15s %12s  %-9s %s",
                    r.method(), size, rate, r.transfers(), r.latencyMillis().get("p50"), r.latencyMillis().get("p99"),
                    cpu(r.clientCpu()), cpu(r.serverCpu()), syscalls, r.verified() ? "yes" : "NO", byName));
        }
        p.flush();
        return out.toString();
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
                + "clientUserSecPerGiB,clientSysSecPerGiB,serverUserSecPerGiB,serverSysSecPerGiB,syscallsPerGiB,verified,skipped,error\n");
        for (MethodResult r : report.results()) {
            b.append(String.join(",", r.direction(), r.method(), Long.toString(r.size()), Long.toString(r.bytes()),
                    Integer.toString(r.transfers()), num(r.seconds()), num(r.mibPerSec()), num(r.mibPerSecMin()),
                    num(r.mibPerSecMax()), num(r.latencyMillis().get("p50")), num(r.latencyMillis().get("p99")),
                    cpuField(r.clientCpu(), "userSecondsPerGiB"), cpuField(r.clientCpu(), "systemSecondsPerGiB"),
                    cpuField(r.serverCpu(), "userSecondsPerGiB"), cpuField(r.serverCpu(), "systemSecondsPerGiB"),
                    num(r.syscallsPerGiB()), Boolean.toString(r.verified()), quote(r.skipped()), quote(r.error())));
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
