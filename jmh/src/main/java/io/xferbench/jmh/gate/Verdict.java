package io.xferbench.jmh.gate;

/** One line of the gate's report. {@code delta} is relative to the baseline (NaN when there is none). */
public record Verdict(String key, String metric, Kind kind, double baseline, double current, double delta, String threshold,
                      Outcome outcome, String note) {

    /** What kind of number is compared. */
    public enum Kind {
        /** Kernel-counted syscalls per op or per MiB: machine-load independent, gated hard. */
        COUNT,
        /** Score ÷ the ruler's score in the same run: gated only on a large, significant, confirmed drop. */
        RATIO,
        /** Absolute score: shown, never gated (machines are shared and noisy). */
        SCORE
    }

    /** The verdict. Only REGRESSED and MISSING fail the gate. */
    public enum Outcome {
        OK, REGRESSED, IMPROVED, NEW, MISSING, INFO;

        public boolean fails() {
            return this == REGRESSED || this == MISSING;
        }
    }

    public Verdict withOutcome(Outcome newOutcome, String newNote) {
        return new Verdict(key, metric, kind, baseline, current, delta, threshold, newOutcome, newNote);
    }
}
