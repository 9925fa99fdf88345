package io.xferbench.disk.pollution;

/**
 * Whether a percentile rests on too few samples to mean more than the largest of them: p99 of 40 requests is the
 * slowest one, and one slow request then moves it by any factor. Marked where it is reported.
 */
final class ThinPercentile {
    /** Samples that must lie beyond a percentile for it to be reported unmarked. */
    static final int MIN_BEYOND = 5;

    private ThinPercentile() {
    }

    /** True when fewer than {@link #MIN_BEYOND} of {@code samples} lie beyond percentile {@code percentile}. */
    static boolean thin(long samples, double percentile) {
        return samples * (100 - percentile) / 100 < MIN_BEYOND;
    }

    /** {@code millis} to two places, with {@code *} when it rests on too few samples. */
    static String p99Cell(double millis, long samples) {
        return String.format(java.util.Locale.ROOT, "%.2f%s", millis, thin(samples, 99) ? "*" : "");
    }
}
