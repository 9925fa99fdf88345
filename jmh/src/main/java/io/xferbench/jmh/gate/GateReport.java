package io.xferbench.jmh.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The gate's verdicts as a table per benchmark and a one-line summary for people, and JSON for machines. */
public record GateReport(List<Verdict> verdicts) {
    /** Exit codes of scripts/perf-gate. */
    public static final int EXIT_OK = 0;
    public static final int EXIT_REGRESSION = 1;
    public static final int EXIT_COULD_NOT_RUN = 2;

    public boolean failed() {
        return verdicts.stream().anyMatch(v -> v.outcome().fails());
    }

    public int exitCode() {
        return failed() ? EXIT_REGRESSION : EXIT_OK;
    }

    public long count(Verdict.Outcome outcome) {
        return verdicts.stream().filter(v -> v.outcome() == outcome).count();
    }

    public String summary() {
        return String.format(Locale.ROOT, "perf-gate: %s — %d checks: %d ok, %d regressed, %d improved, %d new, %d missing (scores shown, never gated)",
                failed() ? "FAIL" : "PASS",
                verdicts.stream().filter(v -> v.outcome() != Verdict.Outcome.INFO).count(),
                count(Verdict.Outcome.OK), count(Verdict.Outcome.REGRESSED), count(Verdict.Outcome.IMPROVED),
                count(Verdict.Outcome.NEW), count(Verdict.Outcome.MISSING));
    }

    public String table() {
        StringBuilder b = new StringBuilder();
        Map<String, List<Verdict>> byKey = verdicts.stream().collect(Collectors.groupingBy(Verdict::key, LinkedHashMap::new, Collectors.toList()));
        for (Map.Entry<String, List<Verdict>> e : byKey.entrySet()) {
            b.append(e.getKey()).append('\n');
            b.append(String.format(Locale.ROOT, "  %-32s %14s %14s %9s  %-34s %s%n", "metric", "baseline", "current", "delta", "threshold", "verdict"));
            for (Verdict v : e.getValue()) {
                b.append(String.format(Locale.ROOT, "  %-32s %14s %14s %9s  %-34s %s%s%n", v.metric(), num(v.baseline()), num(v.current()),
                        pct(v.delta()), v.threshold(), v.outcome().name().toLowerCase(Locale.ROOT),
                        v.note().isEmpty() ? "" : " (" + v.note() + ")"));
            }
        }
        return b.append(summary()).append('\n').toString();
    }

    public void writeJson(Path file) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("passed", !failed());
        root.put("exitCode", exitCode());
        root.put("summary", summary());
        root.put("verdicts", verdicts);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), root);
    }

    private static String num(double d) {
        if (Double.isNaN(d)) {
            return "-";
        }
        return Math.abs(d) >= 1000 ? String.format(Locale.ROOT, "%.0f", d) : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String pct(double d) {
        if (Double.isNaN(d)) {
            return "-";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%+.1f%%", d * 100);
    }
}
