package io.xferbench.disk;

import io.xferbench.core.Sizes;
import io.xferbench.core.read.ReadSpec;

import java.time.Duration;

/**
 * How long a table will take, before it starts and as it goes: each row is charged max(bytes / 200 MiB/s,
 * reads / 5,000 per s) (rough rates of a shared virtio disk: its 4 KiB O_DIRECT rows ran at 5–10k reads/s, its
 * 1 MiB rows at 300–1,000 MiB/s), twice when fio runs a twin. While the run goes, the estimate of what is left is
 * scaled by how the rows so far compared with their estimate, so a faster or slower machine corrects it.
 */
final class RunEstimate {
    static final double BYTES_PER_SECOND = 200.0 * Sizes.MiB;
    static final double READS_PER_SECOND = 5_000;

    private final double totalSeconds;
    private final long rows;
    private final long bytes;
    private final long reads;
    private double doneEstimate;
    private long doneRows;

    private RunEstimate(double totalSeconds, long rows, long bytes, long reads) {
        this.totalSeconds = totalSeconds;
        this.rows = rows;
        this.bytes = bytes;
        this.reads = reads;
    }

    /** The estimate of one run of {@code spec} (a Java row or a fio row). */
    static double seconds(ReadSpec spec) {
        long reads = spec.plan().ops();
        return Math.max(reads * (double) spec.blockSize() / BYTES_PER_SECOND, reads / READS_PER_SECOND);
    }

    static final class Builder {
        private double seconds;
        private long rows;
        private long bytes;
        private long reads;

        /** {@code spec} run {@code runs} times: 2 for a Java row and its fio twin. */
        Builder add(ReadSpec spec, int runs) {
            seconds += runs * seconds(spec);
            rows += runs;
            reads += runs * spec.plan().ops();
            bytes += runs * spec.plan().ops() * spec.blockSize();
            return this;
        }

        RunEstimate build() {
            return new RunEstimate(seconds, rows, bytes, reads);
        }
    }

    /** The plan up front, e.g. "200 rows, 153.8 GiB in 15,241,216 reads: roughly 58 min 40 s ...". */
    String plan() {
        return String.format("%d rows, %.1f GiB in %,d reads: roughly %s at %s/s and %,d reads/s per row (a guide, "
                + "corrected as rows finish)", rows, bytes / (double) Sizes.GiB, reads, format(totalSeconds),
                Sizes.format((long) BYTES_PER_SECOND), (long) READS_PER_SECOND);
    }

    /** Records finished rows (estimated at {@code estimatedSeconds}) and says what is left, scaled by the pace so far. */
    String progress(int finishedRows, double estimatedSeconds, Duration elapsed) {
        doneRows += finishedRows;
        doneEstimate += estimatedSeconds;
        double pace = doneEstimate > 0 ? elapsed.toNanos() / 1e9 / doneEstimate : 1;
        return String.format("%d of %d rows after %s, about %s left", doneRows, rows, format(elapsed.toNanos() / 1e9),
                format((totalSeconds - doneEstimate) * pace));
    }

    static String format(double seconds) {
        long s = Math.max(0, Math.round(seconds));
        return s >= 3600 ? String.format("%d h %02d min", s / 3600, s % 3600 / 60)
                : s >= 60 ? String.format("%d min %02d s", s / 60, s % 60) : s + " s";
    }
}
