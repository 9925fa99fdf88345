package io.xferbench.jmh.gate;

/**
 * One JMH score with its confidence interval (JMH's 99.9% interval across forks and iterations).
 * {@code NaN} scores stand for "no data" and never pass or fail anything by themselves.
 */
public record Metric(double score, double error, double ciLow, double ciHigh, String unit) {

    public boolean isNaN() {
        return Double.isNaN(score);
    }

    /** Whether the two intervals do not overlap: the only case in which a difference is more than noise. */
    public boolean disjointFrom(Metric other) {
        return ciHigh < other.ciLow || other.ciHigh < ciLow;
    }
}
