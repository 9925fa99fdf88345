package io.xferbench.jmh.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The committed baseline: the gate policy (thresholds), the environment it was measured in, and the JMH
 * results verbatim ({@code results}), so {@code --compare} can read it like any JMH result file.
 */
public record Baseline(GatePolicy policy, Map<String, Object> environment, List<BenchmarkResult> results) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public static Baseline read(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        if (root == null || !root.isObject() || !root.has("results")) {
            throw new IOException(file + " is not a gate baseline (no \"results\"); create one with --update-baseline");
        }
        GatePolicy policy = root.has("policy") ? JSON.treeToValue(root.get("policy"), GatePolicy.class) : GatePolicy.DEFAULT;
        @SuppressWarnings("unchecked")
        Map<String, Object> env = root.has("environment") ? JSON.treeToValue(root.get("environment"), Map.class) : Map.of();
        return new Baseline(policy, env, JmhResults.parse(root.get("results")));
    }

    /** Writes a baseline from a JMH result file, keeping its results byte for byte as JMH wrote them. */
    public static void write(Path file, GatePolicy policy, Map<String, Object> environment, Path jmhResults) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("about", "xferbench performance-gate baseline: accept new numbers with scripts/perf-gate --update-baseline, then commit");
        root.set("policy", JSON.valueToTree(policy));
        root.set("environment", JSON.valueToTree(environment));
        root.set("results", JSON.readTree(jmhResults.toFile()));
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), root);
    }
}
