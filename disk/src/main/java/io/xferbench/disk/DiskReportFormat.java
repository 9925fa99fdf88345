package io.xferbench.disk;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.core.table.CsvTable;
import io.xferbench.core.table.MarkdownTable;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.TextTable;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A disk report in the format asked for: JSON ({environment, rows}), CSV (rows only), Markdown or the aligned text
 * table, the last two starting with the environment, one line per entry.
 */
public final class DiskReportFormat {
    private DiskReportFormat() {
    }

    /** The JSON document: the environment, the typed settings (when the report has any), then the rows. */
    private record Document(Map<String, String> environment, @JsonInclude(JsonInclude.Include.NON_NULL) Record settings,
                            List<?> rows) {
    }

    /** {@code table} is the rows for people (the environment is added as its preamble); {@code csv} the rows for tools. */
    public static String render(String format, Map<String, String> environment, List<?> rows, Table table, Table csv)
            throws IOException {
        return render(format, environment, null, rows, table, csv);
    }

    /** The same with {@code settings}, written to the JSON as they are (the environment says them in words). */
    public static String render(String format, Map<String, String> environment, Record settings, List<?> rows, Table table,
                                Table csv) throws IOException {
        environment.forEach((k, v) -> table.preamble(k + ": " + v));
        return switch (format) {
            case "json" -> {
                yield new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(new Document(environment, settings, rows)) + "\n";
            }
            case "csv" -> CsvTable.render(csv);
            case "markdown" -> MarkdownTable.render(table);
            default -> TextTable.aligned(table);
        };
    }
}
