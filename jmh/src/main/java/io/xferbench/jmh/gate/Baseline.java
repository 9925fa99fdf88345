package io.xferbench.jmh.gate;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import io.xferbench.core.metrics.MachineDescription;
import java.util.Optional;

/**
 * The committed baseline: the gate policy (thresholds), what its counts depend on ({@code countsDependOn}, checked
 * before every run; null in a baseline written before it was recorded), the host its ratios were measured on
 * ({@code ratiosDependOn}; null likewise), the environment it was measured in (for people: kept as the file has it, of
 * whichever version wrote it), and the JMH results verbatim ({@code results}), so {@code --compare} can read it like any
 * JMH result file.
 */
public record Baseline(GatePolicy policy, CountEnvironment countsDependOn, HostFingerprint ratiosDependOn,
                       JsonNode environment, List<BenchmarkResult> results) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public static Baseline read(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        if (root == null || !root.isObject() || !root.has("results")) {
            throw new IOException(file + " is not a gate baseline (no \"results\"); create one with --update-baseline");
        }
        GatePolicy policy = root.has("policy") ? JSON.treeToValue(root.get("policy"), GatePolicy.class) : GatePolicy.DEFAULT;
        JsonNode env = root.hasNonNull("environment") ? root.get("environment") : JSON.createObjectNode();
        CountEnvironment counts = root.hasNonNull("countsDependOn") ? JSON.treeToValue(root.get("countsDependOn"), CountEnvironment.class) : null;
        HostFingerprint host = root.hasNonNull("ratiosDependOn") ? JSON.treeToValue(root.get("ratiosDependOn"), HostFingerprint.class) : null;
        return new Baseline(policy, counts, host, env, JmhResults.parse(root.get("results")));
    }

    /** Writes a baseline from a JMH result file, keeping its results byte for byte as JMH wrote them. */
    public static void write(Path file, GatePolicy policy, CountEnvironment countsDependOn, HostFingerprint ratiosDependOn,
                             Environment environment, Path jmhResults) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("about", "xferbench performance-gate baseline: accept new numbers with scripts/perf-gate --update-baseline, then commit");
        root.set("policy", JSON.valueToTree(policy));
        root.set("countsDependOn", JSON.valueToTree(countsDependOn));
        root.set("ratiosDependOn", JSON.valueToTree(ratiosDependOn));
        root.set("environment", JSON.valueToTree(environment));
        root.set("results", JSON.readTree(jmhResults.toFile()));
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), root);
    }

    /** What a baseline records of where it was measured: the machine, then the suite it ran. */
    public record Environment(@JsonUnwrapped MachineDescription machine, GateSuite suite) {
    }

    /**
     * Why this baseline cannot judge a run in {@code here}, as one line, or empty when it can: counts measured on
     * another JDK, kernel or Netty would fail (or pass) for reasons that are not the change under test.
     */
    public Optional<String> refusal(CountEnvironment here, Path file) {
        return refusal(here, "here", file);
    }

    /** The same rule for results measured {@code where} ("here" for a run, "in FILE" for {@code --compare}). */
    public Optional<String> refusal(CountEnvironment current, String where, Path file) {
        String fix = "measure a baseline here with scripts/perf-gate --update-baseline --baseline " + file + " and commit it";
        if (countsDependOn == null) {
            return Optional.of(file + " does not record what its counts depend on (JDK, kernel, Netty): " + fix);
        }
        List<String> differences = current.differencesFrom(countsDependOn, where);
        if (differences.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("syscall counts depend on the environment, and this one differs from " + file + "'s ("
                + String.join("; ", differences) + "): " + fix + ", or run where the baseline was measured");
    }

    /**
     * Why this baseline's ratios cannot judge results measured on {@code host} ({@code where}: "here", "in FILE"), as
     * a verdict note, or empty when they can. A ratio to the ruler moves with the CPU, cores, memory and
     * virtualisation: a fresh host of the same kind failed sendfile's and io_uring's ratios, confirmed by a re-run,
     * with the code unchanged. Counts do not depend on the host and are judged regardless.
     */
    public Optional<String> ratioRefusal(HostFingerprint host, String where, Path file) {
        if (ratiosDependOn == null) {
            return Optional.of("not judged: " + file + " does not record the host its ratios were measured on"
                    + " (CPU, cores, memory, virtualisation)");
        }
        List<String> differences = host.differencesFrom(ratiosDependOn, where);
        return differences.isEmpty() ? Optional.empty()
                : Optional.of("not judged: baseline from another host (" + String.join("; ", differences) + ")");
    }

    /** The command that measures a baseline, ratios included, on the host that runs it. */
    public static String ratioBaselineCommand(Path file) {
        return "scripts/perf-gate --update-baseline --iterations 5 --baseline " + file;
    }
}
