package io.xferbench.twin;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Median and range of a handful of throughputs. */
record Stats(double median, double min, double max, int n) {

    static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int n = v.length;
        double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        return new Stats(median, v[0], v[n - 1], n);
    }

    /** "1234 [1100..1300]" */
    String format() {
        return n == 0 ? "-" : String.format(Locale.ROOT, "%.0f [%.0f..%.0f]", median, min, max);
    }
}
