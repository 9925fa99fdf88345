package io.xferbench.jmh.gate;

import java.util.regex.Pattern;

/**
 * What the gate checks and how much change it tolerates; stored in the baseline file so the thresholds
 * travel with the numbers they apply to.
 *
 * @param countPattern  secondary results that are kernel counts per op (deterministic: gated hard)
 * @param countTolerance relative tolerance of a count (0.05 = 5%)
 * @param countFloor    absolute tolerance per op, for counts near zero (e.g. read/op of transfer-to)
 * @param ratioParam    the param whose values are compared with each other in one run (the method)
 * @param ruler         the value of {@code ratioParam} every other value is divided by
 * @param ratioDrop     relative drop of a ratio that may be a regression (0.20 = 20%), if the intervals are disjoint
 */
public record GatePolicy(String countPattern, double countTolerance, double countFloor, String ratioParam, String ruler,
                         double ratioDrop) {

    public static final GatePolicy DEFAULT = new GatePolicy("^(syscalls|io_uring)([./][^/]*)?/(op|MiB)$", 0.05, 0.5, "method", "stream", 0.20);

    public boolean isCount(String metricName) {
        return Pattern.compile(countPattern).matcher(metricName).matches();
    }

    /** The tolerance band of a count with baseline value {@code base}. */
    public double countBand(double base) {
        return Math.max(countTolerance * Math.abs(base), countFloor);
    }
}
