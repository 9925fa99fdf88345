package io.xferbench.core.table;

import java.util.ArrayList;
import java.util.List;

/**
 * A report's table as cells, for {@link TextTable}, {@link MarkdownTable}, {@link CsvTable} and {@link HtmlTable} to
 * render: the lines said before it (where and how it ran), columns with a header and an alignment, rows of cells, and
 * the notes said after it. A report maps its rows to cells; how a format lays cells out is the renderers' job alone.
 */
public final class Table {
    /** How a column's cells line up: text to the left, numbers to the right. */
    public enum Align { LEFT, RIGHT }

    /**
     * A column's header and alignment; {@code minWidth} keeps narrow columns in line across separate tables;
     * {@code apart} sets it one space further from the column before it in aligned text. A header may have lines
     * ({@code "client usr/sys\nCPU s/GiB"}): text stacks them, the other formats join them by a space.
     */
    public record Column(String header, Align align, int minWidth, boolean apart) {
        public static Column left(String header) {
            return new Column(header, Align.LEFT, 0, false);
        }

        public static Column right(String header) {
            return new Column(header, Align.RIGHT, 0, false);
        }

        public Column atLeast(int width) {
            return new Column(header, align, width, apart);
        }

        public Column setApart() {
            return new Column(header, align, minWidth, true);
        }
    }

    /**
     * One row's cells. A spanning row ends in a cell that stands for all the columns from there on (a skipped row's
     * reason in place of its figures); {@code kind} names it for the formats that can style it (HTML's class).
     */
    public record Row(List<String> cells, String kind) {
        public boolean spans() {
            return kind != null;
        }
    }

    private final List<Column> columns;
    private final List<String> preamble = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    private Table(List<Column> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs a column");
        }
        this.columns = List.copyOf(columns);
    }

    public static Table of(List<Column> columns) {
        return new Table(columns);
    }

    public static Table of(Column... columns) {
        return new Table(List.of(columns));
    }

    /** A line said before the table: where or how it ran. */
    public Table preamble(String line) {
        preamble.add(line);
        return this;
    }

    /** A row with a cell for every column. */
    public Table row(List<String> cells) {
        if (cells.size() != columns.size()) {
            throw new IllegalArgumentException(cells.size() + " cells for " + columns.size() + " columns: " + cells);
        }
        rows.add(new Row(List.copyOf(cells), null));
        return this;
    }

    public Table row(String... cells) {
        return row(List.of(cells));
    }

    /** A row whose last cell spans the columns from its place on; {@code kind} says what it is, e.g. "skipped". */
    public Table spanningRow(String kind, List<String> cells) {
        if (cells.isEmpty() || cells.size() > columns.size()) {
            throw new IllegalArgumentException(cells.size() + " cells for " + columns.size() + " columns: " + cells);
        }
        rows.add(new Row(List.copyOf(cells), kind));
        return this;
    }

    /** A line said after the table; an empty one is a blank line. */
    public Table note(String line) {
        notes.add(line);
        return this;
    }

    public List<Column> columns() {
        return columns;
    }

    /** The headers on one line each. */
    public List<String> headers() {
        return columns.stream().map(c -> c.header().replace('\n', ' ')).toList();
    }

    public List<String> preamble() {
        return List.copyOf(preamble);
    }

    public List<Row> rows() {
        return List.copyOf(rows);
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** A row's cells with empty ones for the columns its spanning cell stands for: for formats without spans. */
    List<String> filled(Row row) {
        List<String> all = new ArrayList<>(row.cells());
        while (all.size() < columns.size()) {
            all.add("");
        }
        return all;
    }
}
