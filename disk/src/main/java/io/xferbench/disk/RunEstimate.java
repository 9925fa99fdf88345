package io.xferbench.disk;

import io.xferbench.core.Sizes;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;

import java.time.Duration;

/**
 * How long a table will take, before it starts and as it goes. A run (a Java row or its fio twin, once) is charged
 * {@link #START_SECONDS} (the Java row's warm-up and expected digest, fio's start) plus max(bytes / 200 MiB/s,
 * reads / 5,000 per s) (rough rates of a shared virtio disk: its 4 KiB O_DIRECT rows ran at 5–10k reads/s, its 1 MiB
 * rows at 300–1,000 MiB/s), plus the settle a cold run waits after its eviction. A buffered sequential run is charged
 * by bytes only: readahead reaches the device in large requests, not one per read. As rows finish, the I/O part of
 * what is left is scaled by how the rows that ran compared with theirs (so a faster or slower machine corrects it);
 * the settle, a fixed sleep, is not scaled, and skipped rows, which take no time, leave the plan without bending the
 * pace.
 */
final class RunEstimate {
    static final double BYTES_PER_SECOND = 200.0 * Sizes.MiB;
    static final double READS_PER_SECOND = 5_000;
    /**
     * Per run, besides its reads: a guess between fio's start (0.3 s) and a Java row's JIT-quiet warm-up (0.5–3.6 s
     * since 2026-11-28, {@code EngineWarmUp}); the pace correction takes up the difference once rows have run.
     */
    static final double START_SECONDS = 0.5;

    private final double settleSeconds;
    private final long rows;
    private final long bytes;
    private final long reads;
    private final double plannedSeconds;
    private double leftScaled;
    private double leftSettle;
    private double ranEstimate;
    private double settled;
    private long doneRows;

    private RunEstimate(double settleSeconds, long rows, long bytes, long reads, double scaled, double settle) {
        this.settleSeconds = settleSeconds;
        this.rows = rows;
        this.bytes = bytes;
        this.reads = reads;
        this.plannedSeconds = scaled + settle;
        this.leftScaled = scaled;
        this.leftSettle = settle;
    }

    /** The estimate of one run of {@code spec} (a Java row or a fio row), without the settle. */
    static double seconds(ReadSpec spec, boolean direct) {
        long ops = spec.plan().ops();
        double byBytes = ops * (double) spec.blockSize() / BYTES_PER_SECOND;
        double byReads = direct || spec.pattern() == ReadPattern.RANDOM ? ops / READS_PER_SECOND : 0;
        return START_SECONDS + Math.max(byBytes, byReads);
    }

    static final class Builder {
        private final double settleSeconds;
        private double scaled;
        private double settle;
        private long rows;
        private long bytes;
        private long reads;

        /** {@code settle}: what a cold run sleeps after its eviction. */
        Builder(Duration settle) {
            this.settleSeconds = settle.toNanos() / 1e9;
        }

        /** {@code spec} run {@code runs} times (a Java row and its fio twin: 2), O_DIRECT or not, cold or warm. */
        Builder add(ReadSpec spec, boolean direct, boolean cold, int runs) {
            scaled += runs * seconds(spec, direct);
            settle += cold ? runs * settleSeconds : 0;
            rows += runs;
            reads += runs * spec.plan().ops();
            bytes += runs * spec.plan().ops() * spec.blockSize();
            return this;
        }

        RunEstimate build() {
            return new RunEstimate(settleSeconds, rows, bytes, reads, scaled, settle);
        }
    }

    /** The plan up front, e.g. "200 rows, 153.8 GiB in 15,241,216 reads: roughly 58 min 40 s ...". */
    String plan() {
        return String.format("%d rows, %.1f GiB in %,d reads: roughly %s at %s/s and %,d reads/s per row, %s per "
                + "cold row's settle (a guide, corrected as rows finish)", rows, bytes / (double) Sizes.GiB, reads,
                format(plannedSeconds), Sizes.format((long) BYTES_PER_SECOND), (long) READS_PER_SECOND, format(settleSeconds));
    }

    /**
     * Records {@code runs} finished runs, each estimated at {@code secondsEach} ({@link #seconds}) and cold or not,
     * {@code skipped} of them skipped (no settle, no reads), and says what is left, its I/O scaled by the pace so far.
     */
    String progress(int runs, int skipped, double secondsEach, boolean cold, Duration elapsed) {
        doneRows += runs;
        leftScaled -= runs * secondsEach;
        leftSettle -= cold ? runs * settleSeconds : 0;
        ranEstimate += (runs - skipped) * secondsEach;
        settled += cold ? (runs - skipped) * settleSeconds : 0;
        double seconds = elapsed.toNanos() / 1e9;
        double pace = ranEstimate > 0 ? Math.max(0, seconds - settled) / ranEstimate : 1;
        return String.format("%d of %d rows after %s, about %s left", doneRows, rows, format(seconds),
                format(Math.max(0, leftScaled) * pace + Math.max(0, leftSettle)));
    }

    static String format(double seconds) {
        long s = Math.max(0, Math.round(seconds));
        return s >= 3600 ? String.format("%d h %02d min", s / 3600, s % 3600 / 60)
                : s >= 60 ? String.format("%d min %02d s", s / 60, s % 60) : s + " s";
    }
}
