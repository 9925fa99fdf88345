package io.xferbench.jmh.gate;

import io.xferbench.jmh.profile.SyscallResults;

import io.xferbench.jmh.gate.Verdict.Kind;
import io.xferbench.jmh.gate.Verdict.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Compares a current JMH run with a baseline run under a {@link GatePolicy}:
 * <ul>
 *   <li>counts (syscalls per op/MiB) fail when they grow past max(tolerance × baseline, floor);</li>
 *   <li>ratios to the ruler method in the same run are flagged when they drop by at least
 *       {@code ratioDrop} AND their confidence intervals are disjoint (the driver re-runs to confirm);</li>
 *   <li>absolute scores are reported, never judged;</li>
 *   <li>a benchmark in the baseline but not in the run is MISSING (fails: a method must not vanish silently).</li>
 * </ul>
 */
public final class GateComparator {
    private final GatePolicy policy;

    public GateComparator(GatePolicy policy) {
        this.policy = policy;
    }

    public List<Verdict> compare(List<BenchmarkResult> baseline, List<BenchmarkResult> current) {
        Map<String, BenchmarkResult> base = byKey(baseline);
        Map<String, BenchmarkResult> cur = byKey(current);
        Map<String, Metric> baseRatios = ratios(baseline);
        Map<String, Metric> curRatios = ratios(current);
        Set<String> keys = new LinkedHashSet<>(base.keySet());
        keys.addAll(cur.keySet());

        List<Verdict> out = new ArrayList<>();
        for (String key : keys) {
            BenchmarkResult b = base.get(key);
            BenchmarkResult c = cur.get(key);
            if (c == null) {
                out.add(new Verdict(key, "score", Kind.SCORE, b.primary().score(), Double.NaN, Double.NaN, "",
                        Outcome.MISSING, "in the baseline but not in this run (removed, renamed or skipped?)"));
                continue;
            }
            if (b == null) {
                out.add(new Verdict(key, "score", Kind.SCORE, Double.NaN, c.primary().score(), Double.NaN, "",
                        Outcome.NEW, "not in the baseline; --update-baseline to start gating it"));
                continue;
            }
            out.addAll(counts(key, b, c));
            if (baseRatios.containsKey(key) && curRatios.containsKey(key)) {
                out.add(ratio(key, baseRatios.get(key), curRatios.get(key)));
            }
            out.add(new Verdict(key, "score (" + c.primary().unit() + ")", Kind.SCORE, b.primary().score(), c.primary().score(),
                    relative(b.primary().score(), c.primary().score()), "not gated", Outcome.INFO, ""));
        }
        return out;
    }

    private List<Verdict> counts(String key, BenchmarkResult b, BenchmarkResult c) {
        List<Verdict> out = new ArrayList<>();
        boolean baseCounted = b.secondary().keySet().stream().anyMatch(policy::isCount);
        boolean curCounted = c.secondary().keySet().stream().anyMatch(policy::isCount);
        if (baseCounted && !curCounted) {
            out.add(new Verdict(key, "syscall counts", Kind.COUNT, Double.NaN, Double.NaN, Double.NaN, "",
                    Outcome.MISSING, "this run has no syscall counts (perf unavailable?)"));
            return out;
        }
        Set<String> names = new LinkedHashSet<>();
        b.secondary().keySet().stream().filter(policy::isCount).forEach(names::add);
        c.secondary().keySet().stream().filter(policy::isCount).forEach(names::add);
        boolean paced = policy.isPaced(c);
        // Totals include background calls (waits and wake-ups follow scheduling: a loaded machine multiplied futex/op by
        // 13 and failed a total by +12%; mprotect follows the JIT): totals are judged without them, in proportion for the
        // per-MiB total.
        double bWait = background(b, names);
        double cWait = background(c, names);
        double bTotal = value(b.secondary().get(SyscallResults.TOTAL));
        double cTotal = value(c.secondary().get(SyscallResults.TOTAL));
        for (String name : names) {
            // A count the profiler did not emit was zero (only non-zero syscalls are reported).
            double bv = withoutWaits(name, value(b.secondary().get(name)), bWait, bTotal);
            double cv = withoutWaits(name, value(c.secondary().get(name)), cWait, cTotal);
            if (Double.isNaN(bv) || Double.isNaN(cv)) {
                out.add(new Verdict(key, name, Kind.COUNT, bv, cv, Double.NaN, "", Outcome.OK, "NaN: not judged"));
                continue;
            }
            if (policy.isBackground(name)) {
                out.add(new Verdict(key, name, Kind.COUNT, bv, cv, relative(bv, cv), "not gated", Outcome.INFO,
                        "follows scheduling or JVM housekeeping"));
                continue;
            }
            double band = policy.countBand(bv, paced);
            Outcome o = cv > bv + band ? Outcome.REGRESSED : cv < bv - band ? Outcome.IMPROVED : Outcome.OK;
            String threshold = paced
                    ? String.format(Locale.ROOT, "±%.2f (paced: max(%.0f%%, %.1f))", band, policy.pacedTolerance() * 100, policy.pacedFloor())
                    : String.format(Locale.ROOT, "±%.2f (max(%.0f%%, %.2f))", band, policy.countTolerance() * 100, policy.countFloor());
            boolean total = name.equals(SyscallResults.TOTAL) || name.equals(SyscallResults.PER_MIB);
            out.add(new Verdict(key, name, Kind.COUNT, bv, cv, relative(bv, cv), threshold, o,
                    total ? "without waits, wake-ups and mprotect/madvise" : ""));
        }
        return out;
    }

    private double background(BenchmarkResult r, Set<String> names) {
        double sum = 0;
        for (String name : names) {
            if (policy.isBackground(name)) {
                double v = value(r.secondary().get(name));
                sum += Double.isNaN(v) ? 0 : v;
            }
        }
        return sum;
    }

    /** A total (per op or per MiB) less the background calls in it; any other count as it is. */
    static double withoutWaits(String name, double value, double waitsPerOp, double totalPerOp) {
        if (name.equals(SyscallResults.TOTAL)) {
            return value - waitsPerOp;
        }
        if (name.equals(SyscallResults.PER_MIB) && totalPerOp > 0) {
            return value * (totalPerOp - waitsPerOp) / totalPerOp;
        }
        return value;
    }

    private Verdict ratio(String key, Metric base, Metric cur) {
        String metric = "ratio to " + policy.ruler();
        String threshold = String.format(Locale.ROOT, "drop >= %.0f%% and CIs disjoint", policy.ratioDrop() * 100);
        if (base.isNaN() || cur.isNaN()) {
            return new Verdict(key, metric, Kind.RATIO, base.score(), cur.score(), Double.NaN, threshold, Outcome.OK, "NaN: not judged");
        }
        double change = relative(base.score(), cur.score());
        Outcome o = Outcome.OK;
        String note = "";
        if (change <= -policy.ratioDrop()) {
            if (cur.disjointFrom(base)) {
                o = Outcome.REGRESSED;
            } else {
                note = "dropped, but within the confidence intervals: noise";
            }
        } else if (change >= policy.ratioDrop() && cur.disjointFrom(base)) {
            o = Outcome.IMPROVED;
        }
        return new Verdict(key, metric, Kind.RATIO, base.score(), cur.score(), change, threshold, o, note);
    }

    /** Score ÷ the ruler's score within each group of the same run, with a conservative interval. */
    Map<String, Metric> ratios(List<BenchmarkResult> results) {
        Map<String, BenchmarkResult> rulers = new LinkedHashMap<>();
        for (BenchmarkResult r : results) {
            if (policy.ruler().equals(r.params().get(policy.ratioParam()))) {
                rulers.put(r.keyWithout(policy.ratioParam()), r);
            }
        }
        Map<String, Metric> out = new LinkedHashMap<>();
        for (BenchmarkResult r : results) {
            BenchmarkResult ruler = rulers.get(r.keyWithout(policy.ratioParam()));
            if (ruler == null || ruler == r || !r.params().containsKey(policy.ratioParam())) {
                continue;
            }
            Metric m = r.primary();
            Metric u = ruler.primary();
            double score = m.score() / u.score();
            double lo = u.ciHigh() > 0 ? m.ciLow() / u.ciHigh() : Double.NaN;
            double hi = u.ciLow() > 0 ? m.ciHigh() / u.ciLow() : Double.POSITIVE_INFINITY;
            out.put(r.key(), new Metric(score, Double.NaN, lo, hi, "x " + policy.ruler()));
        }
        return out;
    }

    private static Map<String, BenchmarkResult> byKey(List<BenchmarkResult> results) {
        Map<String, BenchmarkResult> m = new LinkedHashMap<>();
        for (BenchmarkResult r : results) {
            m.put(r.key(), r);
        }
        return m;
    }

    private static double value(Metric m) {
        return m == null ? 0 : m.score();
    }

    private static double relative(double base, double cur) {
        if (Double.isNaN(base) || Double.isNaN(cur)) {
            return Double.NaN;
        }
        if (base == 0) {
            return cur == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        return (cur - base) / Math.abs(base);
    }
}
