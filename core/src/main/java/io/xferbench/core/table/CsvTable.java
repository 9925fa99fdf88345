package io.xferbench.core.table;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A {@link Table}'s header and rows as CSV (RFC 4180): a cell with a comma, quote or line break is quoted, its quotes
 * doubled. No preamble and no notes: a tool reads every line as a row.
 */
public final class CsvTable {
    private CsvTable() {
    }

    public static String render(Table t) {
        StringBuilder sb = new StringBuilder(line(t.headers()));
        for (Table.Row row : t.rows()) {
            sb.append(line(t.filled(row)));
        }
        return sb.toString();
    }

    private static String line(List<String> cells) {
        return cells.stream().map(CsvTable::quote).collect(Collectors.joining(",")) + "\n";
    }

    public static String quote(String cell) {
        return cell.contains(",") || cell.contains("\"") || cell.contains("\n") || cell.contains("\r")
                ? '"' + cell.replace("\"", "\"\"") + '"' : cell;
    }
}
