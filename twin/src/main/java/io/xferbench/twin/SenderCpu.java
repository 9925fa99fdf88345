package io.xferbench.twin;

import io.xferbench.core.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Medians, per GiB sent, of the sender process's CPU milliseconds (user + system, and user alone) and context switches. */
record SenderCpu(double totalMs, double userMs, double switches) {

    /** From result lines with {@code bytes}, {@code user}, {@code sys} (seconds), {@code vcsw} and {@code ivcsw}. */
    static SenderCpu of(List<Map<String, String>> lines) {
        List<Double> total = new ArrayList<>();
        List<Double> user = new ArrayList<>();
        List<Double> csw = new ArrayList<>();
        for (Map<String, String> f : lines) {
            double gib = Double.parseDouble(f.get("bytes")) / Sizes.GiB;
            double u = Double.parseDouble(f.get("user")) * 1000 / gib;
            total.add(u + Double.parseDouble(f.get("sys")) * 1000 / gib);
            user.add(u);
            csw.add((Double.parseDouble(f.get("vcsw")) + Double.parseDouble(f.get("ivcsw"))) / gib);
        }
        return new SenderCpu(Stats.of(total).median(), Stats.of(user).median(), Stats.of(csw).median());
    }

    /** "607 (335 usr)" */
    String format() {
        return Double.isNaN(totalMs) ? "-" : String.format(Locale.ROOT, "%.0f (%.0f usr)", totalMs, userMs);
    }
}
