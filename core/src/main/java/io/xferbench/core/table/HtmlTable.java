package io.xferbench.core.table;

/**
 * A {@link Table}'s header and rows as an HTML {@code <table>} element (the page around it is the report's): a
 * spanning row's last cell spans the columns it stands for, with the row's kind as its class.
 */
public final class HtmlTable {
    private HtmlTable() {
    }

    public static String render(Table t) {
        StringBuilder sb = new StringBuilder("<table>\n<tr>");
        t.headers().forEach(h -> sb.append("<th>").append(escape(h)).append("</th>"));
        sb.append("</tr>\n");
        for (Table.Row row : t.rows()) {
            sb.append("<tr>");
            for (int i = 0; i < row.cells().size(); i++) {
                String cell = escape(row.cells().get(i));
                if (row.spans() && i == row.cells().size() - 1) {
                    sb.append("<td class=\"").append(escape(row.kind())).append("\" colspan=\"")
                            .append(t.columns().size() - i).append("\">").append(cell).append("</td>");
                } else {
                    sb.append("<td>").append(cell).append("</td>");
                }
            }
            sb.append("</tr>\n");
        }
        return sb.append("</table>\n").toString();
    }

    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
