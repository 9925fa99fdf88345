package io.xferbench.disk.pollution;

import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * One sampling period of the hot set: when it ended, how long it was, the hot set's residency at its end, and the
 * requests that completed in it.
 */
record Sample(long endNanos, double seconds, double residencyPercent, long requests, long errors,
              Histogram latencyNanos) {

    double requestsPerSecond() {
        return seconds > 0 ? requests / seconds : 0;
    }

    /** Figures over consecutive samples: rate and p99 over all their requests; residency as chosen by the caller. */
    record Span(long requests, double requestsPerSecond, double p99Millis, long errors, double lowestResidency,
                double lastResidency, double meanResidency) {

        static Span of(List<Sample> samples) {
            Histogram all = new Histogram(3);
            double seconds = 0;
            long requests = 0;
            long errors = 0;
            double lowest = 100;
            double sum = 0;
            for (Sample s : samples) {
                all.add(s.latencyNanos());
                seconds += s.seconds();
                requests += s.requests();
                errors += s.errors();
                lowest = Math.min(lowest, s.residencyPercent());
                sum += s.residencyPercent();
            }
            return new Span(requests, seconds > 0 ? requests / seconds : 0,
                    all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(99) / 1e6, errors,
                    samples.isEmpty() ? 0 : lowest, samples.isEmpty() ? 0 : samples.getLast().residencyPercent(),
                    samples.isEmpty() ? 0 : sum / samples.size());
        }
    }
}
