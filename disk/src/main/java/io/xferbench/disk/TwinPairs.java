package io.xferbench.disk;

import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.read.ReadSpec;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A Java row beside its fio twin: the pair run {@code --repeat} times in turning order, and the one pair the table
 * shows for them.
 */
final class TwinPairs {
    private final RowMeasurer m;
    private final String fio;
    private final String fioSkip;
    private final PrintStream log;

    /** {@code fioSkip}: why the twins do not run (no fio, --no-fio), or null when they do. */
    TwinPairs(RowMeasurer m, String fio, String fioSkip, PrintStream log) {
        this.m = m;
        this.fio = fio;
        this.fioSkip = fioSkip;
        this.log = log;
    }

    /**
     * The Java row of {@code engine} and its fio twin's (if it has one), in one cache state, {@code repeat} times,
     * the order turning each pair (Java then fio, fio then Java, ...: ABBA), so drift of a shared device or CPU, and
     * whatever one run leaves for the next, hit both tools alike; shown: the pair with the median ratio, with the
     * ratios' spread on the Java row.
     */
    List<DiskRow> measure(ReadEngine engine, ReadSpec spec, String cache, int repeat) throws IOException {
        List<List<DiskRow>> pairs = new ArrayList<>();
        for (int r = 0; r < repeat; r++) {
            // The first pair runs Java first: a Java row that is skipped skips its twin, and only running it says so.
            boolean twinFirst = twinFirst(r) && pairs.get(0).get(0).skipped() == null;
            pairs.add(onePair(engine, spec, cache, twinFirst));
        }
        return representative(pairs);
    }

    /** Whether repeat {@code r} (from 0) runs the fio twin before the Java row: ABBA, odd repeats. */
    static boolean twinFirst(int r) {
        return r % 2 == 1;
    }

    private List<DiskRow> onePair(ReadEngine engine, ReadSpec spec, String cache, boolean twinFirst) throws IOException {
        String twin = engine.fioEngine();
        FioJob job = twin == null ? null : FioJob.of(twin, engine.fioOptions(), spec, engine.direct());
        DiskRow f = null;
        if (twin != null && twinFirst && fioSkip == null) {
            f = logged(m.fio(fio, job, cache, UnaryOperator.identity()));
        }
        DiskRow java = logged(m.java(engine, spec, cache));
        if (twin == null) {
            return List.of(java);
        }
        if (f == null) {
            f = fioSkip != null || java.skipped() != null
                    ? DiskRow.skipped("fio", job.label(), java.pattern(), spec.blockSize(), spec.concurrency(), engine.direct(), cache,
                            spec.span(), 0, fioSkip != null ? fioSkip : "java twin skipped")
                    : logged(m.fio(fio, job, cache, UnaryOperator.identity()));
        }
        return pair(java, f);
    }

    /** The Java row, with its speed's ratio to the twin's when both ran, then the twin's row. */
    static List<DiskRow> pair(DiskRow java, DiskRow fio) {
        return List.of(fio.skipped() == null && java.skipped() == null && fio.mibPerSec() > 0
                ? java.withRatio(java.mibPerSec() / fio.mibPerSec()) : java, fio);
    }

    /** Prints a measured row as it comes (CSV, without the header), so a long run shows its progress and order. */
    private DiskRow logged(DiskRow row) throws IOException {
        log.println("bench-disk: " + DiskTable.format(Map.of(), List.of(row), "csv").lines().skip(1).findFirst().orElse(""));
        return row;
    }

    /**
     * Of repeated (Java, twin) pairs: the pair with the median ratio (or, without ratios, the median Java MiB/s), its
     * Java row carrying the spread of the ratios and verified only if every repeat's Java row was.
     */
    static List<DiskRow> representative(List<List<DiskRow>> pairs) {
        if (pairs.size() == 1) {
            return pairs.get(0);
        }
        List<List<DiskRow>> sorted = new ArrayList<>(pairs);
        boolean ratios = pairs.stream().allMatch(p -> p.get(0).ratio() != null);
        sorted.sort(Comparator.comparingDouble(p -> ratios ? p.get(0).ratio() : p.get(0).mibPerSec()));
        List<DiskRow> median = sorted.get((sorted.size() - 1) / 2);
        Double min = ratios ? sorted.get(0).get(0).ratio() : null;
        Double max = ratios ? sorted.get(sorted.size() - 1).get(0).ratio() : null;
        List<DiskRow> out = new ArrayList<>();
        out.add(median.get(0).asRepresentativeOf(pairs.size(), min, max, allVerified(pairs)));
        for (int i = 1; i < median.size(); i++) {
            DiskRow twin = median.get(i);
            out.add(twin.asRepresentativeOf(pairs.size(), twin.ratioMin(), twin.ratioMax(), twin.verified()));
        }
        return out;
    }

    /** Whether every repeat's Java row was verified: null when none says, false when one was not. */
    private static Boolean allVerified(List<List<DiskRow>> pairs) {
        Boolean verified = null;
        for (List<DiskRow> p : pairs) {
            Boolean v = p.get(0).verified();
            if (v != null) {
                verified = (verified == null || verified) && v;
            }
        }
        return verified;
    }
}
