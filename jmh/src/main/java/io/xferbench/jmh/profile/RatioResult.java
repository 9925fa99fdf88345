package io.xferbench.jmh.profile;

import java.util.Collection;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Aggregator;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.util.ListStatistics;

/**
 * A count divided by a count (syscalls ÷ ops), that JMH aggregates by summing numerators and denominators:
 * the score of several forks is Σ syscalls / Σ ops, not a mean of ratios, and an iteration that does not carry
 * the result does not pull it towards zero (unlike {@code ScalarResult}, whose "zero result" JMH adds for every
 * iteration a label is missing from). The error is the 99.9% interval of the per-fork ratios, NaN for one fork.
 */
public final class RatioResult extends Result<RatioResult> {
    private static final long serialVersionUID = 1L;

    private final double numerator;
    private final double denominator;
    /** The ratio of each part aggregated here (one per fork once JMH has merged the forks). */
    private final double[] parts;

    public RatioResult(String label, double numerator, double denominator, String unit) {
        this(label, numerator, denominator, unit, new double[] {ratio(numerator, denominator)});
    }

    private RatioResult(String label, double numerator, double denominator, String unit, double[] parts) {
        super(ResultRole.SECONDARY, label, new ListStatistics(parts), unit, AggregationPolicy.AVG);
        this.numerator = numerator;
        this.denominator = denominator;
        this.parts = parts;
    }

    private static double ratio(double numerator, double denominator) {
        return denominator == 0 ? Double.NaN : numerator / denominator;
    }

    public double numerator() {
        return numerator;
    }

    public double denominator() {
        return denominator;
    }

    /** How many forks (or other parts) this result sums. */
    public int parts() {
        return parts.length;
    }

    @Override
    public double getScore() {
        return ratio(numerator, denominator);
    }

    @Override
    public double getScoreError() {
        return parts.length > 1 ? statistics.getMeanErrorAt(0.999) : Double.NaN;
    }

    @Override
    public double[] getScoreConfidence() {
        double score = getScore();
        double error = getScoreError();
        return Double.isNaN(error) ? new double[] {score, score} : new double[] {score - error, score + error};
    }

    @Override
    protected Aggregator<RatioResult> getThreadAggregator() {
        return RatioResult::sum;
    }

    @Override
    protected Aggregator<RatioResult> getIterationAggregator() {
        return RatioResult::sum;
    }

    /** Σ numerators / Σ denominators; the parts are concatenated. */
    static RatioResult sum(Collection<RatioResult> results) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("nothing to aggregate");
        }
        RatioResult first = results.iterator().next();
        double num = 0;
        double den = 0;
        int n = 0;
        for (RatioResult r : results) {
            if (!r.label.equals(first.label) || !r.unit.equals(first.unit)) {
                throw new IllegalArgumentException("cannot aggregate " + r.label + " [" + r.unit + "] with " + first.label + " [" + first.unit + "]");
            }
            num += r.numerator;
            den += r.denominator;
            n += r.parts.length;
        }
        double[] parts = new double[n];
        int i = 0;
        for (RatioResult r : results) {
            System.arraycopy(r.parts, 0, parts, i, r.parts.length);
            i += r.parts.length;
        }
        return new RatioResult(first.label, num, den, first.unit, parts);
    }
}
