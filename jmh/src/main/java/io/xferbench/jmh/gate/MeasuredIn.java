package io.xferbench.jmh.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.OptionalInt;

/**
 * Where the results of a file given to {@code --compare} were measured, as far as the file says. A gate baseline
 * records it ({@code countsDependOn}, {@code ratiosDependOn}: null when it does not). A plain JMH result file records
 * only its JDK ({@code jdkVersion}); its kernel, Netty and host are taken to be this machine's, where {@code --compare}
 * runs (results kept with {@code --results} and judged here). Results from elsewhere are compared as baseline files.
 *
 * @param counts what its counts depend on, or null when a baseline file does not record it
 * @param host   the host its ratios were measured on, or null when a baseline file does not record it
 * @param where  how messages name it: "in FILE"
 */
record MeasuredIn(CountEnvironment counts, HostFingerprint host, String where) {
    private static final ObjectMapper JSON = new ObjectMapper();

    static MeasuredIn of(Path file) throws IOException {
        JsonNode root = JSON.readTree(Files.readString(file));
        String where = "in " + file;
        if (root != null && root.isObject()) {
            Baseline b = Baseline.read(file);
            return new MeasuredIn(b.countsDependOn(), b.ratiosDependOn(), where);
        }
        CountEnvironment here = CountEnvironment.current();
        int jdk = jdkFeature(root).orElse(here.jdkFeature());
        return new MeasuredIn(new CountEnvironment(jdk, here.kernel(), here.netty()), HostFingerprint.current(), where);
    }

    /** The JDK feature release JMH recorded with the first result ("25.0.3" → 25), if it did. */
    private static OptionalInt jdkFeature(JsonNode results) {
        if (results == null || !results.isArray() || results.isEmpty() || !results.get(0).hasNonNull("jdkVersion")) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Runtime.Version.parse(results.get(0).get("jdkVersion").asText()).feature());
        } catch (IllegalArgumentException e) {
            return OptionalInt.empty();
        }
    }

    /** This file's results as the baseline side of a comparison: a baseline file as it is, a JMH file as measured here. */
    static Baseline asBaseline(Path file) throws IOException {
        JsonNode root = JSON.readTree(Files.readString(file));
        if (root != null && root.isObject()) {
            return Baseline.read(file);
        }
        MeasuredIn m = of(file);
        return new Baseline(GatePolicy.DEFAULT, m.counts(), m.host(), JsonNodeFactory.instance.objectNode(), JmhResults.read(file));
    }
}
