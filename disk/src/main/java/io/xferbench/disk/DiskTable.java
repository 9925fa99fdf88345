package io.xferbench.disk;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.xferbench.core.Sizes;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rows as an aligned text table, JSON ({environment, rows}), CSV (rows only) or a Markdown table; the table and
 * Markdown start with the environment ({@link DiskEnvironment}), one line per entry.
 */
final class DiskTable {
    private static final String[] HEAD = {"tool", "engine", "pattern", "block", "qd", "direct", "cache", "span",
            "cgroup", "MiB/s", "IOPS", "p50 us", "p99 us", "csw/GiB", "cpu s/GiB", "sys/op", "dev reads", "dev MiB",
            "dev us/read",
            "verified", "warm-up", "java/fio", "skipped"};

    private DiskTable() {
    }

    static String format(Map<String, String> environment, List<DiskRow> rows, String format) throws IOException {
        return switch (format) {
            case "json" -> {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("environment", environment);
                doc.put("rows", rows);
                yield new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc) + "\n";
            }
            case "csv" -> csv(rows);
            case "markdown" -> lines(environment, "- ") + (environment.isEmpty() ? "" : "\n") + markdown(rows);
            default -> lines(environment, "# ") + table(rows);
        };
    }

    private static String lines(Map<String, String> environment, String prefix) {
        StringBuilder sb = new StringBuilder();
        environment.forEach((k, v) -> sb.append(prefix).append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }

    /** First and last index of the measured columns: a skipped row shows "-" there, never a measured-looking 0. */
    private static final int FIRST_MEASURED = 9;
    private static final int LAST_MEASURED = 18;

    private static String[] cells(DiskRow r) {
        String[] c = measuredCells(r);
        if (r.skipped() != null) {
            Arrays.fill(c, FIRST_MEASURED, LAST_MEASURED + 1, "-");
        }
        return c;
    }

    private static String[] measuredCells(DiskRow r) {
        return new String[] {r.tool(), r.engine(), r.pattern(), Sizes.format(r.blockSize()),
                Integer.toString(r.queueDepth()), r.direct() ? "yes" : "no", r.cache(), Sizes.format(r.span()),
                r.cgroupLimit() == 0 ? "-" : Sizes.format(r.cgroupLimit()), num(r.mibPerSec()), num(r.iops()),
                num(r.p50Micros()), num(r.p99Micros()), num(r.contextSwitchesPerGiB()), dec(r.cpuSecondsPerGiB()),
                r.syscallsPerOp() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.syscallsPerOp()),
                Long.toString(r.deviceReads()), Long.toString(r.deviceMiB()), num(r.deviceMicrosPerRead()),
                r.verified() == null ? "-" : r.verified() ? "yes" : "NO",
                warmUp(r),
                ratio(r),
                r.skipped() == null ? "" : r.skipped()};
    }

    /** How long the engine ran untimed first; {@code unsettled} when the row began before the JIT was seen quiet. */
    private static String warmUp(DiskRow r) {
        if (r.warmUpSeconds() == null) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.1f s", r.warmUpSeconds())
                + (Boolean.TRUE.equals(r.jitSettled()) ? "" : ", unsettled");
    }

    /** The ratio; with repeats, the range of the pairs' ratios and their number, e.g. {@code 0.92 (0.70–1.14 of 3)}. */
    private static String ratio(DiskRow r) {
        if (r.ratio() == null) {
            return "-";
        }
        String shown = String.format(Locale.ROOT, "%.2f", r.ratio());
        return r.repeats() <= 1 || r.ratioMin() == null ? shown
                : String.format(Locale.ROOT, "%s (%.2f–%.2f of %d)", shown, r.ratioMin(), r.ratioMax(), r.repeats());
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String dec(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String table(List<DiskRow> rows) {
        int[] w = new int[HEAD.length];
        for (int i = 0; i < HEAD.length; i++) {
            w[i] = HEAD[i].length();
        }
        for (DiskRow r : rows) {
            String[] c = cells(r);
            for (int i = 0; i < c.length; i++) {
                w[i] = Math.max(w[i], c[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, HEAD, w);
        for (DiskRow r : rows) {
            line(sb, cells(r), w);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String[] c, int[] w) {
        for (int i = 0; i < c.length; i++) {
            sb.append(String.format(Locale.ROOT, i < 3 || i == c.length - 1 ? "%-" + w[i] + "s" : "%" + w[i] + "s",
                    c[i]));
            sb.append(i == c.length - 1 ? "" : "  ");
        }
        sb.append('\n');
    }

    private static String csv(List<DiskRow> rows) {
        StringBuilder sb = new StringBuilder(String.join(",", HEAD)).append('\n');
        for (DiskRow r : rows) {
            String[] c = cells(r);
            for (int i = 0; i < c.length; i++) {
                sb.append(i == 0 ? "" : ",").append(c[i].contains(",") ? '"' + c[i].replace("\"", "\"\"") + '"' : c[i]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String markdown(List<DiskRow> rows) {
        StringBuilder sb = new StringBuilder("| ").append(String.join(" | ", HEAD)).append(" |\n|");
        sb.append("---|".repeat(HEAD.length)).append('\n');
        for (DiskRow r : rows) {
            sb.append("| ").append(String.join(" | ", cells(r)).replace("\n", " ")).append(" |\n");
        }
        return sb.toString();
    }
}
