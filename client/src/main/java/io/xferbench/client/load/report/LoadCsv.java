package io.xferbench.client.load.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.xferbench.core.table.CsvTable;
import io.xferbench.core.table.Table;
import io.xferbench.core.table.Table.Column;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * Load rows as CSV: a column per field the JSON writes for any row, in the order the rows first have it, a row's
 * absent fields empty. By-cause maps and per-operation counts are left out: a cell holds no object.
 */
final class LoadCsv {
    private LoadCsv() {
    }

    /** A field of a row as the JSON names it, and its value (null: written as null). */
    record Cell(String name, Object value) {
        String text() {
            return value == null ? "" : String.valueOf(value);
        }
    }

    static String render(List<LoadRowFields> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        List<List<Cell>> cells = rows.stream().map(r -> cells(r, new ArrayList<>())).toList();
        List<String> names = new ArrayList<>();
        for (List<Cell> row : cells) {
            row.stream().map(Cell::name).filter(n -> !names.contains(n) && !n.endsWith("ByCause") && !n.equals("operations"))
                    .forEach(names::add);
        }
        Table table = Table.of(names.stream().map(Column::left).toList());
        for (List<Cell> row : cells) {
            table.row(names.stream().map(n -> row.stream().filter(c -> c.name().equals(n)).findFirst().map(Cell::text).orElse(""))
                    .toList());
        }
        return CsvTable.render(table);
    }

    /**
     * The fields of {@code fields} in the order the JSON writes them, as Jackson walks the same records: an unwrapped
     * group's fields in its place (none when it is null), a field included only when not null left out when null.
     */
    static List<Cell> cells(Record fields, List<Cell> into) {
        for (RecordComponent component : fields.getClass().getRecordComponents()) {
            Method accessor = component.getAccessor();
            Object value;
            try {
                value = accessor.invoke(fields);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + component, e);
            }
            if (accessor.isAnnotationPresent(JsonUnwrapped.class)) {
                if (value != null) {
                    cells((Record) value, into);
                }
            } else if (value != null || !omittedWhenNull(accessor)) {
                into.add(new Cell(component.getName(), value));
            }
        }
        return into;
    }

    private static boolean omittedWhenNull(Method accessor) {
        JsonInclude include = accessor.getAnnotation(JsonInclude.class);
        return include != null && include.value() == JsonInclude.Include.NON_NULL;
    }
}
