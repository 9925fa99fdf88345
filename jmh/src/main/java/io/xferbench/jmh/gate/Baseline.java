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
import java.util.Optional;

/**
 * The committed baseline: the gate policy (thresholds), what its counts depend on ({@code countsDependOn}, checked
 * before every run; null in a baseline written before it was recorded), the environment it was measured in (for
 * people), and the JMH results verbatim ({@code results}), so {@code --compare} can read it like any JMH result file.
 */
public record Baseline(GatePolicy policy, CountEnvironment countsDependOn, Map<String, Object> environment,
                       List<BenchmarkResult> results) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public static Baseline read(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        if (root == null || !root.isObject() || !root.has("results")) {
            throw new IOException(file + " is not a gate baseline (no \"results\"); create one with --update-baseline");
        }
        GatePolicy policy = root.has("policy") ? JSON.treeToValue(root.get("policy"), GatePolicy.class) : GatePolicy.DEFAULT;
        @SuppressWarnings("unchecked")
        Map<String, Object> env = root.has("environment") ? JSON.treeToValue(root.get("environment"), Map.class) : Map.of();
        CountEnvironment counts = root.hasNonNull("countsDependOn") ? JSON.treeToValue(root.get("countsDependOn"), CountEnvironment.class) : null;
        return new Baseline(policy, counts, env, JmhResults.parse(root.get("results")));
    }

    /** Writes a baseline from a JMH result file, keeping its results byte for byte as JMH wrote them. */
    public static void write(Path file, GatePolicy policy, CountEnvironment countsDependOn, Map<String, Object> environment,
                             Path jmhResults) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("about", "xferbench performance-gate baseline: accept new numbers with scripts/perf-gate --update-baseline, then commit");
        root.set("policy", JSON.valueToTree(policy));
        root.set("countsDependOn", JSON.valueToTree(countsDependOn));
        root.set("environment", JSON.valueToTree(environment));
        root.set("results", JSON.readTree(jmhResults.toFile()));
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), root);
    }

    /**
     * Why this baseline cannot judge a run in {@code here}, as one line, or empty when it can: counts measured on
     * another JDK, kernel or Netty would fail (or pass) for reasons that are not the change under test.
     */
    public Optional<String> refusal(CountEnvironment here, Path file) {
        String fix = "measure a baseline here with scripts/perf-gate --update-baseline --baseline " + file + " and commit it";
        if (countsDependOn == null) {
            return Optional.of(file + " does not record what its counts depend on (JDK, kernel, Netty): " + fix);
        }
        List<String> differences = here.differencesFrom(countsDependOn);
        if (differences.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("syscall counts depend on the environment, and this one differs from " + file + "'s ("
                + String.join("; ", differences) + "): " + fix + ", or run where the baseline was measured");
    }
}
