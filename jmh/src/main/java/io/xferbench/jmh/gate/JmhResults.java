package io.xferbench.jmh.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads JMH's {@code -rf json} output. Scores JMH writes as the string "NaN" become {@link Double#NaN}. */
public final class JmhResults {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JmhResults() {
    }

    /** Reads a JMH result file, or the {@code results} of a gate baseline file. */
    public static List<BenchmarkResult> read(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        if (root != null && root.isObject() && root.has("results")) {
            root = root.get("results");
        }
        if (root == null || !root.isArray()) {
            throw new IOException(file + " is neither a JMH JSON result file (a JSON array) nor a gate baseline");
        }
        return parse(root);
    }

    public static List<BenchmarkResult> parse(JsonNode root) {
        List<BenchmarkResult> out = new ArrayList<>();
        for (JsonNode b : root) {
            Map<String, String> params = new TreeMap<>();
            JsonNode p = b.get("params");
            if (p != null) {
                p.fields().forEachRemaining(e -> params.put(e.getKey(), e.getValue().asText()));
            }
            Map<String, Metric> secondary = new LinkedHashMap<>();
            JsonNode sec = b.get("secondaryMetrics");
            if (sec != null) {
                for (Iterator<Map.Entry<String, JsonNode>> it = sec.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    secondary.put(e.getKey(), metric(e.getValue()));
                }
            }
            out.add(new BenchmarkResult(b.get("benchmark").asText(), new TreeMap<>(params), metric(b.get("primaryMetric")), secondary));
        }
        return out;
    }

    private static Metric metric(JsonNode m) {
        double score = number(m.get("score"));
        double error = number(m.get("scoreError"));
        JsonNode ci = m.get("scoreConfidence");
        double lo = ci != null && ci.size() == 2 ? number(ci.get(0)) : score;
        double hi = ci != null && ci.size() == 2 ? number(ci.get(1)) : score;
        if (Double.isNaN(lo) || Double.isNaN(hi)) {
            lo = Double.isNaN(error) ? score : score - error;
            hi = Double.isNaN(error) ? score : score + error;
        }
        return new Metric(score, error, lo, hi, m.has("scoreUnit") ? m.get("scoreUnit").asText() : "");
    }

    /** A score as JMH writes it: a JSON number, or the string "NaN"; missing or unreadable is NaN too. */
    public static double number(JsonNode n) {
        if (n == null || n.isNull()) {
            return Double.NaN;
        }
        if (n.isNumber()) {
            return n.asDouble();
        }
        try {
            return Double.parseDouble(n.asText());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
