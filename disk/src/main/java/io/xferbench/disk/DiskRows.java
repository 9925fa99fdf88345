package io.xferbench.disk;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.read.ReadEngines;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The table's rows: per pattern × block size × depth × cache state every Java engine, each with its fio twin, then
 * the beyond-RAM section; all planned first, so each engine's progress line can say how far the run is.
 */
final class DiskRows {
    private DiskRows() {
    }

    static List<DiskRow> run(DiskBench.Options o, PrintStream log) throws IOException {
        KilledRunSweep.run("bench-disk", o.dir, "xferbench-disk-", CgroupHost.system(), log);
        try (Cleanup cleanup = new Cleanup("bench-disk")) {
            Path dir = RunDirectory.create(o.dir, "xferbench-disk-");
            cleanup.add(() -> RunDirectory.delete(dir));
            Path file = dir.resolve("data");
            String fio = o.fio() ? Fio.path() : null;
            String fioSkip = o.fio() ? (fio == null ? Fio.missingReason() : null) : "--no-fio";
            List<ReadSpec> specs = specs(o, file);
            RunEstimate estimate = estimate(o, specs, file, fioSkip);
            log.println("bench-disk: plan: " + estimate.plan());
            DiskBench.generate(file, o.size);
            BlockDevice device = BlockDevice.of(file);
            log.printf("bench-disk: %s on %s (%s), scheduler %s%n", Sizes.format(o.size), device.name(),
                    device.majorMinor(), device.scheduler());
            Duration settle = o.settle();
            logSettle(o, settle, log);
            RowMeasurer m = new RowMeasurer(device, new ContentGenerator(DiskBench.SEED), settle, o.jitSettle);
            BeyondRam.Finished finished = progress(estimate, log);
            List<DiskRow> rows = engineRows(o, specs, new TwinPairs(m, fio, fioSkip, log), fioSkip, finished);
            rows.addAll(BeyondRam.rows(o, file, m, fio, fioSkip, log, cleanup, finished)); // skipped rows with the reason, too
            return rows;
        }
    }

    private static List<ReadSpec> specs(DiskBench.Options o, Path file) {
        List<ReadSpec> specs = new ArrayList<>();
        for (ReadPattern pattern : o.patterns) {
            for (long blockSize : o.blockSizes) {
                for (int depth : o.depths) {
                    specs.add(rowSpec(o, file, pattern, (int) blockSize, depth));
                }
            }
        }
        return specs;
    }

    /**
     * One row's reads: a sequential row reads the first {@code --row-bytes} of the file (all of it when smaller),
     * a random row {@code --random-ops} blocks, at most {@code --row-bytes} of them, anywhere in the file.
     */
    static ReadSpec rowSpec(DiskBench.Options o, Path file, ReadPattern pattern, int bs, int depth) {
        long whole = o.size / bs * bs;
        long span = pattern == ReadPattern.SEQUENTIAL ? Math.max(bs, Math.min(whole, o.rowBytes) / bs * bs) : whole;
        long ops = Math.min(o.randomOps, Math.max(1, o.rowBytes / bs));
        return new ReadSpec(file, span, pattern, bs, depth, ops, 42).withRingFlags(o.ringFlags);
    }

    /** Every run the table and the beyond-RAM section will make, for the plan line and the progress lines. */
    private static RunEstimate estimate(DiskBench.Options o, List<ReadSpec> specs, Path file, String fioSkip) {
        RunEstimate.Builder plan = new RunEstimate.Builder(o.settle());
        for (ReadSpec spec : specs) {
            for (String cache : o.caches) {
                engines(o).forEach(e -> plan.add(spec, e.direct(), cache.equals("cold"), runs(e, fioSkip) * o.repeat));
            }
        }
        for (ReadSpec spec : BeyondRam.specs(o, file)) {
            BeyondRam.engines().forEach((engine, direct) -> plan.add(spec, direct, true, BeyondRam.runsPerEngine(fioSkip)));
        }
        return plan.build();
    }

    private static void logSettle(DiskBench.Options o, Duration settle, PrintStream log) {
        if (o.caches.contains("cold")) {
            log.println("bench-disk: cold rows wait " + settle.toMillis() + " ms after the eviction ("
                    + (o.settle != null ? "--settle" : FreePageReporting.active()
                    ? "free page reporting (virtio-balloon) is on: memory freed by the eviction goes back to the host ~2 s later"
                    : "no free page reporting here") + ")");
        }
    }

    /** Prints, as each engine's rows finish, how many of the planned runs are done and how long the rest will take. */
    private static BeyondRam.Finished progress(RunEstimate estimate, PrintStream log) {
        long started = System.nanoTime();
        return (spec, direct, cold, pair, runs) -> log.println("bench-disk: "
                + estimate.progress(runs, skippedRuns(pair, runs), RunEstimate.seconds(spec, direct), cold,
                Duration.ofNanos(System.nanoTime() - started)));
    }

    private static List<DiskRow> engineRows(DiskBench.Options o, List<ReadSpec> specs, TwinPairs twins, String fioSkip,
                                            BeyondRam.Finished finished) throws IOException {
        List<DiskRow> rows = new ArrayList<>();
        for (ReadSpec spec : specs) {
            for (String cache : o.caches) {
                for (ReadEngine engine : engines(o)) {
                    List<DiskRow> pair = twins.measure(engine, spec, cache, o.repeat);
                    rows.addAll(pair);
                    finished.rows(spec, engine.direct(), cache.equals("cold"), fioSkip != null ? pair.subList(0, 1) : pair,
                            runs(engine, fioSkip) * o.repeat);
                }
            }
        }
        return rows;
    }

    /**
     * Of {@code runs} runs shown as {@code pair} (the representative Java row, and its twin when fio ran), how many
     * were skipped: all when the Java row was (its twin is then skipped too), the twin's half when only fio was.
     */
    static int skippedRuns(List<DiskRow> pair, int runs) {
        if (pair.get(0).skipped() != null) {
            return runs;
        }
        return pair.size() > 1 && pair.get(1).skipped() != null ? runs / 2 : 0;
    }

    /** Rows an engine costs: its Java row, and its fio twin's when fio runs. */
    private static int runs(ReadEngine engine, String fioSkip) {
        return engine.fioEngine() != null && fioSkip == null ? 2 : 1;
    }

    private static List<ReadEngine> engines(DiskBench.Options o) {
        if (o.engines == null) {
            return ReadEngines.all();
        }
        List<ReadEngine> list = new ArrayList<>();
        for (String name : o.engines) {
            list.add(ReadEngines.named(name).orElseThrow());
        }
        return list;
    }
}
