package io.xferbench.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.metrics.HostTuning;
import io.xferbench.core.metrics.NetworkPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The whole output of a run: how it was obtained, then one result per method and size.
 *
 * @param environment how it was obtained, as JSON: read back from a report of whichever version wrote it (or made here
 *                    from a {@link RunEnvironment}), so render, compare and merge read both alike
 */
public record Report(JsonNode environment, List<MethodResult> results) {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What {@code client load --format json} writes as its {@code schema} ({@code xferbench-load/1}). */
    private static final String LOAD_SCHEMA_PREFIX = "xferbench-load/";

    /** Reads a report written with {@code --format json}; a file that is not one fails with one line. */
    public static Report read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new java.nio.file.NoSuchFileException(file.toString());
        }
        Report report;
        JsonNode tree;
        try {
            tree = JSON.readTree(file.toFile());
            if (tree == null || !tree.isObject()) {
                throw new IOException(file + " is not an xferbench client JSON report: not a JSON object");
            }
            // A load report is a different document (rows of requests/s, not results per method): say so, not which field.
            JsonNode schema = tree.get("schema");
            if (schema != null && schema.isTextual() && schema.asText().startsWith(LOAD_SCHEMA_PREFIX)) {
                throw new IOException(file + " is a load report (" + schema.asText() + "): render and merge read download, "
                        + "upload and proxy reports (compare reads two load reports); client load writes its table or CSV with --format");
            }
            report = JSON.treeToValue(tree, Report.class);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(file + " is not an xferbench client JSON report: " + e.getOriginalMessage());
        }
        if (report == null || report.environment() == null || !report.environment().isObject() || report.results() == null) {
            throw new IOException(file + " is not an xferbench client JSON report: no environment or results");
        }
        JsonNode rows = tree.get("results");
        for (int i = 0; i < report.results().size(); i++) {
            String problem = problem(report.results().get(i), rows.get(i));
            if (problem != null) {
                throw new IOException(file + " is not an xferbench client JSON report: results[" + i + "] " + problem);
            }
        }
        String environmentProblem = environmentProblem(report.environment());
        if (environmentProblem != null) {
            throw new IOException(file + " is not an xferbench client JSON report: environment." + environmentProblem);
        }
        JsonNode v = report.environment().path("provenance").path("schemaVersion");
        if (v.isNumber() && v.intValue() > Provenance.SCHEMA_VERSION) {
            // Read anyway: most of a newer layout is the same, and the reader is told what to trust.
            System.err.println("xferbench: warning: " + file + " has schema " + v + ", newer than this client's "
                    + Provenance.SCHEMA_VERSION + ": fields it changed may be misread or missing");
        }
        return report;
    }

    /**
     * The environment's typed parts, converted here as the renderers will convert them, so that a hand-edited one is
     * rejected naming itself rather than failing later as a bare conversion error; null when all convert.
     */
    private static String environmentProblem(JsonNode environment) {
        Map<String, Class<?>> typed = Map.of("network", NetworkPath.class, "provenance", Provenance.class,
                "clients", ReportMerge.Clients.class);
        for (Map.Entry<String, Class<?>> part : typed.entrySet()) {
            JsonNode value = environment.get(part.getKey());
            try {
                if (value != null && JSON.convertValue(value, part.getValue()) instanceof ReportMerge.Clients c && c.members() == null) {
                    return "clients has no members";
                }
            } catch (IllegalArgumentException e) {
                return part.getKey() + ": " + e.getMessage();
            }
        }
        for (String side : List.of("client", "server", "proxy")) {
            JsonNode tuning = environment.path(side).get("tuning");
            if (tuning != null && !tuning.isNull()) {
                try {
                    JSON.convertValue(tuning, HostTuning.class);
                } catch (IllegalArgumentException e) {
                    return side + ".tuning: " + e.getMessage();
                }
            }
        }
        return null;
    }

    /**
     * What a hand-edited or truncated row lacks that every written row has; null when nothing. Its status is checked as
     * written ({@code json}): one with no reason and no rounds is no row, not a failed one.
     */
    private static String problem(MethodResult r, JsonNode json) {
        if (r == null) {
            return "is null";
        }
        if (r.row().direction() == null) {
            return "has no direction";
        }
        if (r.row().method() == null) {
            return "has no method";
        }
        if (absent(json.get("skipped")) && absent(json.get("error")) && r.throughput().repeatMibPerSec() == null) {
            return "(" + r.row().method() + ") is neither skipped nor failed but has no measured rounds (repeatMibPerSec)";
        }
        return null;
    }

    private static boolean absent(JsonNode field) {
        return field == null || field.isNull();
    }

    /** A report just measured: its environment as JSON, as the report will be read back. */
    public static Report of(RunEnvironment environment, List<MethodResult> results) {
        return new Report(JSON.valueToTree(environment), results);
    }

    /**
     * The network path the run took ({@code environment.network}), typed whether this report was just measured or
     * read back from JSON; null for reports older than the field.
     */
    public NetworkPath network() {
        JsonNode network = environment.get("network");
        return network == null ? null : JSON.convertValue(network, NetworkPath.class);
    }

    /** Which build made this report, when, with which arguments; null for reports older than the field. */
    public Provenance provenance() {
        JsonNode provenance = environment.get("provenance");
        return provenance == null ? null : JSON.convertValue(provenance, Provenance.class);
    }

    /** Merged reports only: the clients merged; null for a single client's report. */
    public ReportMerge.Clients clients() {
        JsonNode clients = environment.get("clients");
        return clients == null ? null : JSON.convertValue(clients, ReportMerge.Clients.class);
    }

    public boolean anyFailed() {
        return results.stream().anyMatch(r -> r.status() instanceof MethodResult.Status.Failed);
    }
}
