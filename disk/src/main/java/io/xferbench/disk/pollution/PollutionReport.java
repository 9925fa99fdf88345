package io.xferbench.disk.pollution;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.core.Sizes;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The environment and rows as an aligned text table, JSON ({environment, rows}), CSV (rows only) or Markdown. */
final class PollutionReport {
    private static final String[] HEAD = {"mode", "big MiB/s", "passes", "verified", "hot resident % b/d/a",
            "hot % at read end mincore/vmtouch", "hot req/s b/d/a",
            "hot p99 ms b/d/a", "hot requests b/d/a", "recover s", "dev reads during", "dev MiB during", "dev reads after",
            "big cached %", "cgroup", "cgroup peak", "skipped"};

    private PollutionReport() {
    }

    static String format(Map<String, String> environment, List<PollutionRow> rows, String format) throws IOException {
        return switch (format) {
            case "json" -> {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("environment", environment);
                doc.put("rows", rows);
                yield new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc) + "\n";
            }
            case "csv" -> csv(rows);
            case "markdown" -> markdown(environment, rows);
            default -> table(environment, rows);
        };
    }

    private static String[] cells(PollutionRow r) {
        if (r.skipped() != null) {
            String[] c = new String[HEAD.length];
            java.util.Arrays.fill(c, "-");
            c[0] = r.mode();
            c[HEAD.length - 3] = Sizes.format(r.cgroupLimit());
            c[HEAD.length - 1] = r.skipped();
            return c;
        }
        return new String[] {r.mode(), num(r.bigMiBPerSec()), Integer.toString(r.bigPasses()),
                r.bigVerified() ? "yes" : "NO",
                triple(r.hotResidencyBefore(), r.hotResidencyDuring(), r.hotResidencyAfter()),
                String.format(Locale.ROOT, "%.1f / %s", r.hotResidencyEndOfRead(), r.hotResidencyVmtouch() == null
                        ? "-" : String.format(Locale.ROOT, "%.1f", r.hotResidencyVmtouch())),
                triple(r.hotReqPerSecBefore(), r.hotReqPerSecDuring(), r.hotReqPerSecAfter()),
                ThinPercentile.p99Cell(r.hotP99MsBefore(), r.hotRequestsBefore()) + " / "
                        + ThinPercentile.p99Cell(r.hotP99MsDuring(), r.hotRequestsDuring()) + " / "
                        + ThinPercentile.p99Cell(r.hotP99MsAfter(), r.hotRequestsAfter()),
                r.hotRequestsBefore() + " / " + r.hotRequestsDuring() + " / " + r.hotRequestsAfter(),
                r.recoverySeconds() == null ? ">" + num(r.recoverCapSeconds())
                        : String.format(Locale.ROOT, "%.2f", r.recoverySeconds()),
                Long.toString(r.deviceReadsDuring()), Long.toString(r.deviceMiBDuring()),
                Long.toString(r.deviceReadsAfter()), num(r.bigResidencyAfter()), Sizes.format(r.cgroupLimit()),
                r.cgroupPeak() == null ? "-" : Sizes.format(r.cgroupPeak() / Sizes.MiB * Sizes.MiB),
                r.hotErrors() > 0 ? r.hotErrors() + " hot request errors" : ""};
    }

    /** The footnote of a starred p99, where any row has one. */
    private static String thinNote(List<PollutionRow> rows) {
        boolean any = rows.stream().anyMatch(r -> r.skipped() == null && !r.hotP99Thin().isEmpty());
        return any ? "* p99 of a window with fewer than " + ThinPercentile.MIN_BEYOND * 100 + " hot requests: fewer than "
                + ThinPercentile.MIN_BEYOND + " lie beyond it, so it is little more than its slowest request\n" : "";
    }

    private static String triple(double before, double during, double after) {
        return num(before) + " / " + num(during) + " / " + num(after);
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String table(Map<String, String> environment, List<PollutionRow> rows) {
        StringBuilder sb = new StringBuilder();
        environment.forEach((k, v) -> sb.append("# ").append(k).append(": ").append(v).append('\n'));
        int[] w = new int[HEAD.length];
        for (int i = 0; i < HEAD.length; i++) {
            w[i] = HEAD[i].length();
        }
        for (PollutionRow r : rows) {
            String[] c = cells(r);
            for (int i = 0; i < c.length; i++) {
                w[i] = Math.max(w[i], c[i].length());
            }
        }
        line(sb, HEAD, w);
        for (PollutionRow r : rows) {
            line(sb, cells(r), w);
        }
        return sb.append(thinNote(rows)).toString();
    }

    private static void line(StringBuilder sb, String[] c, int[] w) {
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < c.length; i++) {
            boolean left = i == 0 || i == c.length - 1;
            l.append(String.format(Locale.ROOT, left ? "%-" + w[i] + "s" : "%" + w[i] + "s", c[i])).append("  ");
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    /** Flat columns, the JSON field names, one row per mode. */
    private static String csv(List<PollutionRow> rows) {
        StringBuilder sb = new StringBuilder();
        var components = PollutionRow.class.getRecordComponents();
        for (int i = 0; i < components.length; i++) {
            sb.append(i == 0 ? "" : ",").append(components[i].getName());
        }
        sb.append('\n');
        for (PollutionRow r : rows) {
            for (int i = 0; i < components.length; i++) {
                Object v;
                try {
                    v = components[i].getAccessor().invoke(r);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
                String s = v == null ? "" : v.toString();
                sb.append(i == 0 ? "" : ",").append(s.contains(",") || s.contains("\"")
                        ? '"' + s.replace("\"", "\"\"") + '"' : s);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String markdown(Map<String, String> environment, List<PollutionRow> rows) {
        StringBuilder sb = new StringBuilder();
        environment.forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        sb.append("\n| ").append(String.join(" | ", HEAD)).append(" |\n|").append("---|".repeat(HEAD.length))
                .append('\n');
        for (PollutionRow r : rows) {
            sb.append("| ").append(String.join(" | ", cells(r))).append(" |\n");
        }
        return sb.append(thinNote(rows).isEmpty() ? "" : "\n" + thinNote(rows)).toString();
    }
}
