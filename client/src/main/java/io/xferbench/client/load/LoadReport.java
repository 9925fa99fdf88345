package io.xferbench.client.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.core.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Load rows as a table for people, JSON or CSV for tools. */
final class LoadReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private LoadReport() {
    }

    /** One server (or model) at one concurrency. */
    record Row(String server, String protocol, String operation, long fileSize, LoadResult result) {
    }

    static String render(List<Row> rows, LoadCommand.Format format) throws JsonProcessingException {
        return switch (format) {
            case TABLE -> table(rows);
            case JSON -> JSON.writeValueAsString(rows.stream().map(LoadReport::fields).toList()) + "\n";
            case CSV -> csv(rows);
        };
    }

    static Map<String, Object> fields(Row row) {
        LoadResult r = row.result();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("server", row.server());
        m.put("protocol", row.protocol());
        m.put("operation", row.operation());
        m.put("fileSizeBytes", row.fileSize());
        m.put("concurrency", r.connections());
        m.put("clientThreads", r.threads());
        m.put("targetRatePerSec", r.targetRatePerSecond());
        m.put("requests", r.requests());
        m.put("seconds", r.seconds());
        m.put("requestsPerSec", r.requestsPerSecond());
        m.put("mibPerSec", r.mibPerSecond());
        m.put("latencyP50Millis", r.latency().p50());
        m.put("latencyP90Millis", r.latency().p90());
        m.put("latencyP99Millis", r.latency().p99());
        m.put("latencyP999Millis", r.latency().p999());
        m.put("latencyMaxMillis", r.latency().max());
        m.put("errors", r.errorCount());
        m.put("errorsByCause", r.errors());
        m.put("unfinished", r.unfinished());
        m.put("clientCpuMicrosPerRequest", r.clientCpuMicrosPerRequest());
        m.put("clientBusiestLoopShare", r.clientBusiestLoopShare());
        m.put("verified", r.verified());
        return m;
    }

    private static String table(List<Row> rows) {
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"server", "op", "file", "conns", "req/s", "MiB/s", "p50 ms", "p99 ms", "p99.9 ms",
            "errors", "client µs/req", "loop busy", "verified"});
        for (Row row : rows) {
            LoadResult r = row.result();
            cells.add(new String[] {row.server(), row.operation(), Sizes.format(row.fileSize()), String.valueOf(r.connections()),
                f("%.0f", r.requestsPerSecond()), f("%.1f", r.mibPerSecond()), f("%.2f", r.latency().p50()),
                f("%.2f", r.latency().p99()), f("%.2f", r.latency().p999()), errors(r),
                f("%.1f", r.clientCpuMicrosPerRequest()), f("%.0f%%", r.clientBusiestLoopShare() * 100),
                r.verified() ? "yes" : "NO"});
        }
        int[] width = new int[cells.get(0).length];
        for (String[] line : cells) {
            for (int i = 0; i < line.length; i++) {
                width[i] = Math.max(width[i], line[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] line : cells) {
            for (int i = 0; i < line.length; i++) {
                String pad = " ".repeat(width[i] - line[i].length());
                sb.append(i < 3 ? line[i] + pad : pad + line[i]).append(i + 1 < line.length ? "  " : "\n");
            }
        }
        sb.append(legend(rows));
        return sb.toString();
    }

    private static String legend(List<Row> rows) {
        boolean open = rows.stream().anyMatch(r -> r.result().targetRatePerSecond() > 0);
        return (open ? "Open loop: latency from each request's intended start (coordinated omission corrected).\n"
                : "Closed loop: each connection sends its next request when its last one completes.\n")
                + "Every body verified by length and CRC32C; 'loop busy' is the busiest generator thread's CPU share "
                + "(near 100% the client may be the limit).\n";
    }

    private static String errors(LoadResult r) {
        if (r.errors().isEmpty()) {
            return "0";
        }
        return r.errorCount() + " (" + r.errors().entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", ")) + ")";
    }

    private static String csv(List<Row> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        List<Map<String, Object>> maps = rows.stream().map(LoadReport::fields).toList();
        List<String> keys = new ArrayList<>(maps.get(0).keySet());
        keys.remove("errorsByCause");
        sb.append(String.join(",", keys)).append('\n');
        for (Map<String, Object> m : maps) {
            sb.append(keys.stream().map(k -> quote(String.valueOf(m.get(k)))).collect(Collectors.joining(","))).append('\n');
        }
        return sb.toString();
    }

    private static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    private static String f(String pattern, double v) {
        return String.format(Locale.ROOT, pattern, v);
    }
}
