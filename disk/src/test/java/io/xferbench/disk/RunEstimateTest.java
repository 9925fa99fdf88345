package io.xferbench.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.xferbench.core.Sizes;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * RunEstimate against scripted runs whose true durations are this VM's measured ones (bench-disk on a 256 MiB file,
 * 2026-11-28: buffered sequential 4 KiB at 226-245 MiB/s through readahead, random 4 KiB at 8-9k reads/s, every cold
 * run 3 s of settle plus ~0.5 s of start): what it says is left must be near what the script has left. The old
 * estimate charged buffered sequential 4 KiB rows one device read per 4 KiB (52 s for 1 GiB, ran in 4.5 s), left the
 * settle out and scaled everything by the pace of those first rows: "about 4 s left" with 36 s to go.
 */
class RunEstimateTest {
    private static final Path FILE = Path.of("data");
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final double START = 0.5;

    /** One scripted run: what it reads, how, and how long it truly took (0 when skipped). */
    private record Run(ReadSpec spec, boolean direct, double seconds, boolean skipped) {
    }

    private static ReadSpec sequential(int blockSize) {
        return new ReadSpec(FILE, Sizes.GiB, ReadPattern.SEQUENTIAL, blockSize, 1, 1, 42);
    }

    private static ReadSpec random(int blockSize, long ops) {
        return new ReadSpec(FILE, 4 * Sizes.GiB, ReadPattern.RANDOM, blockSize, 1, ops, 42);
    }

    /** A cold run that read {@code mib} MiB at {@code mibPerSecond}, with the settle and start around it. */
    private static Run cold(ReadSpec spec, boolean direct, double mibPerSecond) {
        double mib = spec.plan().ops() * (double) spec.blockSize() / Sizes.MiB;
        return new Run(spec, direct, SETTLE.toNanos() / 1e9 + START + mib / mibPerSecond, false);
    }

    /**
     * Feeds {@code runs} a pair at a time; each estimate of what is left, from the {@code from}th run on (before it,
     * the estimate cannot know what the script holds), must be within [low, high] × the truth, ± 1 s of rounding.
     */
    private static void assertNearTheTruth(List<Run> runs, int from, double low, double high) {
        RunEstimate.Builder plan = new RunEstimate.Builder(SETTLE);
        runs.forEach(r -> plan.add(r.spec(), r.direct(), true, 1));
        RunEstimate estimate = plan.build();
        double total = runs.stream().mapToDouble(Run::seconds).sum();
        double elapsed = 0;
        for (int i = 0; i + 1 < runs.size(); i += 2) {
            String line = null;
            for (Run r : runs.subList(i, i + 2)) {
                elapsed += r.seconds();
                line = estimate.progress(1, r.skipped() ? 1 : 0, RunEstimate.seconds(r.spec(), r.direct()), true,
                        Duration.ofNanos((long) (elapsed * 1e9)));
            }
            if (i + 2 < from) {
                continue;
            }
            double left = total - elapsed;
            double said = secondsLeft(line);
            assertTrue(said >= low * left - 1 && said <= high * left + 1,
                    String.format("after %d of %d runs, %.1f s truly left: %s", i + 2, runs.size(), left, line));
        }
    }

    /** The seconds of "..., about 1 min 04 s left". */
    private static double secondsLeft(String line) {
        String left = line.substring(line.indexOf("about ") + 6, line.lastIndexOf(" left"));
        if (left.contains(" min ")) {
            String[] p = left.split(" min | s");
            return Integer.parseInt(p[0]) * 60 + Integer.parseInt(p[1]);
        }
        return Integer.parseInt(left.replace(" s", ""));
    }

    @Test
    void fastBufferedSequentialRowsFirstDoNotShrinkWhatIsLeft() {
        // sync-filechannel and its fio twin (psync), 4 KiB and 1 MiB, sequential then random, cold, 4 GiB file.
        List<Run> runs = List.of(
                cold(sequential(4096), false, 226), cold(sequential(4096), false, 245),
                cold(sequential(1 << 20), false, 201), cold(sequential(1 << 20), false, 299),
                cold(random(4096, 20_000), false, 8032 * 4096.0 / Sizes.MiB), cold(random(4096, 20_000), false, 9234 * 4096.0 / Sizes.MiB),
                cold(random(1 << 20, 1024), false, 780), cold(random(1 << 20, 1024), false, 640));
        assertNearTheTruth(runs, 0, 0.7, 1.6);
    }

    @Test
    void skippedRowsLeaveThePlanWithoutSpeedingUpThePace() {
        // An O_DIRECT engine the machine cannot run (skipped, and its twin with it) between two measured pairs.
        List<Run> runs = new ArrayList<>();
        runs.add(cold(random(4096, 20_000), false, 8032 * 4096.0 / Sizes.MiB));
        runs.add(cold(random(4096, 20_000), false, 9234 * 4096.0 / Sizes.MiB));
        runs.add(new Run(random(4096, 20_000), true, 0, true));
        runs.add(new Run(random(4096, 20_000), true, 0, true));
        runs.add(cold(random(4096, 20_000), false, 8032 * 4096.0 / Sizes.MiB));
        runs.add(cold(random(4096, 20_000), false, 9234 * 4096.0 / Sizes.MiB));
        runs.add(cold(random(4096, 20_000), false, 8032 * 4096.0 / Sizes.MiB));
        runs.add(cold(random(4096, 20_000), false, 9234 * 4096.0 / Sizes.MiB));
        assertNearTheTruth(runs, 4, 0.8, 1.25); // once the skipped ones are known
    }

    @Test
    void theSettleIsChargedPerColdRunAndNotScaled() {
        ReadSpec spec = random(4096, 20_000); // 0.5 s start + 20,000 / 5,000 per s
        assertEquals(4.5, RunEstimate.seconds(spec, false), 1e-9);
        RunEstimate e = new RunEstimate.Builder(SETTLE).add(spec, false, true, 2).add(spec, false, false, 2).build();
        assertTrue(e.plan().contains("roughly 24 s"), e.plan()); // 4 × 4.5 + 2 × 3
        // The first cold run's reads took half their estimate: 2.25 s + 3 s of settle; left: 3 × 2.25 + 3.
        assertEquals("1 of 4 rows after 5 s, about 10 s left", e.progress(1, 0, 4.5, true, Duration.ofMillis(5_250)));
    }
}
