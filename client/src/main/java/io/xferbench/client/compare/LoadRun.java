package io.xferbench.client.compare;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadSettings;
import io.xferbench.core.metrics.MachineDescription;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A load report ({@code client load}, {@code client load-bench}) read back for compare: its machine, its settings and
 * its rows. A file that is not one fails with one line naming what is wrong.
 *
 * @param environment where it ran, as JSON (checked to read as the machine description it was written from)
 * @param settings    how it ran, as JSON (checked to read as the command's settings record)
 */
public record LoadRun(JsonNode environment, JsonNode settings, List<LoadRow> rows) {
    // Unknown fields are a newer or older writer's, not an error: compare reads the ones it shows.
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final String SCHEMA_PREFIX = "xferbench-load/";

    /** Whether the file says it is a load report; false for anything else, which the other readers then judge. */
    public static boolean is(Path file) {
        try {
            JsonNode schema = JSON.readTree(file.toFile()).path("schema");
            return schema.isTextual() && schema.asText().startsWith(SCHEMA_PREFIX);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    public static LoadRun read(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString());
        }
        try {
            JsonNode tree = JSON.readTree(file.toFile());
            String schema = tree == null ? "" : tree.path("schema").asText("");
            if (!schema.equals(LoadReport.SCHEMA)) {
                throw new IOException(file + " is not a " + LoadReport.SCHEMA + " load report: schema " + (schema.isEmpty() ? "missing" : schema));
            }
            JsonNode environment = tree.path("environment");
            JsonNode settings = tree.path("settings");
            if (!environment.isObject() || !settings.isObject() || !tree.path("rows").isArray()) {
                throw new IOException(file + " is not a load report: no environment, settings or rows");
            }
            JSON.treeToValue(environment, MachineDescription.class);
            // The JSON does not say which command wrote it; only load-bench lists the server models.
            Class<? extends LoadSettings> command = settings.has("xferbenchIoModels") ? LoadSettings.Bench.class : LoadSettings.Load.class;
            JSON.treeToValue(settings, command);
            List<LoadRow> rows = new ArrayList<>();
            for (JsonNode node : tree.path("rows")) {
                LoadRow row = JSON.treeToValue(node, LoadRow.class);
                String missing = row == null ? "everything" : row.missing();
                if (missing != null) {
                    throw new IOException(file + " is not a load report: rows[" + rows.size() + "] has no " + missing);
                }
                rows.add(row);
            }
            return new LoadRun(environment, settings, rows);
        } catch (JacksonException e) {
            throw new IOException(file + " is not a load report: " + e.getOriginalMessage());
        }
    }
}
