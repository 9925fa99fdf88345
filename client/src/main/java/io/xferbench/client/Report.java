package io.xferbench.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.metrics.NetworkPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The whole output of a run: how it was obtained, then one result per method and size. */
record Report(Map<String, Object> environment, List<MethodResult> results) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads a report written with {@code --format json}; a file that is not one fails with one line. */
    static Report read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new java.nio.file.NoSuchFileException(file.toString());
        }
        Report report;
        try {
            report = JSON.readValue(file.toFile(), Report.class);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(file + " is not an xferbench client JSON report: " + e.getOriginalMessage());
        }
        if (report == null || report.environment() == null || report.results() == null) {
            throw new IOException(file + " is not an xferbench client JSON report: no environment or results");
        }
        return report;
    }

    /**
     * The network path the run took ({@code environment.network}), typed whether this report was just measured or
     * read back from JSON; null for reports older than the field.
     */
    NetworkPath network() {
        Object network = environment.get("network");
        return network == null ? null : JSON.convertValue(network, NetworkPath.class);
    }

    /** Which build made this report, when, with which arguments; null for reports older than the field. */
    Provenance provenance() {
        Object provenance = environment.get("provenance");
        return provenance == null ? null : JSON.convertValue(provenance, Provenance.class);
    }

    boolean anyFailed() {
        return results.stream().anyMatch(r -> r.error() != null);
    }
}
