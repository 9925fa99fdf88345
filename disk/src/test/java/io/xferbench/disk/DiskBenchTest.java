package io.xferbench.disk;

import io.xferbench.core.cli.Cli;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.method.Availability;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.testing.MethodAssumptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.Matcher;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The table end to end at 8 MiB and one block size: verified Java rows, fio twins where fio is, nothing left. */
class DiskBenchTest {
    @Test
    void tinyTableRunsEndToEnd() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "disk-bench-");
        try {
            Path killedRuns = Files.createDirectory(dir.resolve("xferbench-disk-" + RunDirectoryTest.deadOwner() + "-1"));
            Files.write(killedRuns.resolve("data"), new byte[4096]);
            DiskBench.Options o = DiskBench.Options.parse(new String[] {"--size", "8MiB", "--block-sizes", "64KiB",
                    "--depths", "2", "--random-ops", "64", "--cache", "cold,warm", "--settle", "0", "--jit-settle", "0",
                    "--dir", dir.toString()});
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            List<DiskRow> rows = DiskRows.run(o, new PrintStream(log));
            Matcher progress = Pattern.compile("(\\d+) of (\\d+) rows after").matcher(log.toString());
            String done = null;
            String planned = null;
            while (progress.find()) {
                done = progress.group(1);
                planned = progress.group(2);
            }
            assertNotNull(done, "no progress line: " + log);
            assertEquals(planned, done, "the last progress line counts every planned run, no more");
            List<DiskRow> java = rows.stream().filter(r -> r.tool().equals("java") && r.skipped() == null).toList();
            assertTrue(java.size() >= 24, "expected every engine × both patterns × both cache states, got " + java.size());
            java.forEach(r -> assertTrue(r.verified(), r.engine() + " " + r.pattern() + " not verified"));
            java.forEach(r -> assertTrue(r.ops() > 0 && r.mibPerSec() > 0, r.toString()));
            // --jit-settle 0: one untimed round, and no row claims a quiet JIT.
            java.forEach(r -> assertTrue(r.warmUpSeconds() != null && Boolean.FALSE.equals(r.jitSettled()), r.toString()));
            assertTrue(DiskTable.format(Map.of(), java, "table").contains(" s, unsettled"), "the table hides it");
            if (PerfSyscallCounter.availability().isAvailable()) {
                // The kernel's count: at least a pread64 per block for the sync engine. (At 128 ops the JVM's own calls
                // in the window outweigh io_uring's few enters, so the engines are not compared at this size.)
                java.stream().filter(r -> r.engine().equals("sync-filechannel")).forEach(r -> assertTrue(
                        r.syscallsPerOp() != null && r.syscallsPerOp() >= 1, "sync sys/op " + r.syscallsPerOp()));
                java.forEach(r -> assertNotNull(r.syscallsPerOp(), r.engine() + " has no syscall count"));
            }
            assertTrue(rows.stream().anyMatch(r -> r.cache().equals("warm")), "--cache cold,warm made no warm row");
            List<DiskRow> fio = rows.stream().filter(r -> r.tool().equals("fio")).toList();
            if (Fio.path() != null) {
                fio.forEach(r -> assertNull(r.skipped(), r.engine() + ": " + r.skipped()));
                assertTrue(fio.stream().anyMatch(r -> r.engine().equals("io_uring")));
            } else {
                fio.forEach(r -> assertEquals(Fio.missingReason(), r.skipped()));
            }
            for (String format : List.of("table", "json", "csv", "markdown")) {
                assertFalse(DiskTable.format(Map.of(), rows, format).isBlank());
            }
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(0, left.count(), "the data file, or a SIGKILLed run's directory, was left behind");
            }
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    /**
     * A run removes, first thing, what a SIGKILLed run of the program left, and says so: its scratch directory and its
     * memory cgroup, even when this run makes no cgroup itself (--cgroup-limit none). Found by SIGKILLing
     * scripts/bench-disk in its cgroup section: the next run removed the directory without a word and left the group.
     */
    @Test
    void aRunFirstRemovesWhatAKilledRunLeftAndSaysSo() throws Exception {
        MethodAssumptions.assumeAvailable("memory cgroup", new Availability(MemoryCgroup.unavailableReason()));
        Path dir = Files.createTempDirectory(Path.of("target"), "disk-bench-");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path staleGroup = MemoryHierarchy.detect().hierarchy().root().resolve(MemoryCgroup.PREFIX + gone.pid() + "-0");
        try {
            Path killedRun = Files.createDirectory(dir.resolve("xferbench-disk-" + RunDirectoryTest.deadOwner() + "-1"));
            Files.write(killedRun.resolve("data"), new byte[4096]);
            Files.createDirectory(staleGroup);
            DiskBench.Options o = DiskBench.Options.parse(new String[] {"--size", "1MiB", "--block-sizes", "64KiB",
                    "--depths", "1", "--engines", "mmap", "--patterns", "sequential", "--cache", "warm", "--no-fio",
                    "--cgroup-limit", "none", "--dir", dir.toString()});
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            DiskRows.run(o, new PrintStream(log, true));
            assertFalse(Files.exists(staleGroup), "the killed run's memory cgroup is still there");
            assertTrue(log.toString().contains("bench-disk: removed " + killedRun + ", left by a run that was killed"), log.toString());
            assertTrue(log.toString().contains("bench-disk: removed " + staleGroup + ", left by a run that was killed"), log.toString());
        } finally {
            Files.deleteIfExists(staleGroup);
            RunDirectory.delete(dir);
        }
    }

    /** A saved table, JSON or Markdown named no JDK, kernel, file system, device or cache handling: only stderr did. */
    @Test
    void theTableJsonAndMarkdownSayHowTheRowsWereObtained() throws Exception {
        DiskBench.Options o = DiskBench.Options.parse("--size", "64MiB", "--row-bytes", "16MiB", "--dir", "target", "--no-fio",
                "--settle", "0s");
        Map<String, String> environment = DiskEnvironment.describe(o, null);
        List<DiskRow> rows = List.of(DiskRow.skipped("fio", "psync", "sequential", 4096, 1, true, "cold", 1 << 20, 0, "--no-fio"));
        String table = DiskTable.format(environment, rows, "table");
        assertTrue(table.startsWith("# jdk: "), table);
        assertTrue(table.contains("\n# fileSystem: ") && table.contains(", scheduler "), table);
        assertTrue(table.contains("\n# file: 64MiB generated by the run; a sequential row reads its first 16MiB"), table);
        assertTrue(table.contains("\n# cache: cold; cold: evicted (fadvise DONTNEED, checked with mincore) before each row, then 0 ms settle"), table);
        assertTrue(table.contains("\n# repeat: 1 run of each row: no range"), table);
        assertTrue(table.contains("\n# fio: none (--no-fio)"), table);
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(DiskTable.format(environment, rows, "json"));
        assertEquals(System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"), json.get("environment").get("jdk").asText());
        assertEquals("psync", json.get("rows").get(0).get("engine").asText());
        assertTrue(DiskTable.format(environment, rows, "markdown").startsWith("- jdk: "));
    }

    @Test
    void aSkippedRowShowsDashesNotZerosWhereNumbersWouldBe() throws Exception {
        DiskRow skipped = DiskRow.skipped("fio", "psync", "sequential", 4096, 1, true, "cold", 1 << 20, 0, "--no-fio");
        String csv = DiskTable.format(Map.of(), List.of(skipped), "csv");
        String row = csv.lines().skip(1).findFirst().orElseThrow();
        assertEquals("fio,psync,sequential,4KiB,1,yes,cold,1MiB,-,-,-,-,-,-,-,-,-,-,-,-,-,-,--no-fio", row, csv);
        String md = DiskTable.format(Map.of(), List.of(skipped), "markdown");
        assertFalse(md.contains("| 0 |"), md);
    }

    @Test
    void markdownRightAlignsTheFiguresAsTheTextTableDoesAndNoTextLineEndsInBlanks() throws Exception {
        DiskRow skipped = DiskRow.skipped("fio", "psync", "sequential", 4096, 1, true, "cold", 1 << 20, 0, "--no-fio");
        String md = DiskTable.format(Map.of(), List.of(skipped), "markdown");
        assertTrue(md.contains("\n|---|---|---|---:|---:|"), md);
        assertTrue(md.contains("---:|---|\n"), md);
        String table = DiskTable.format(Map.of(), List.of(skipped), "table");
        assertTrue(table.lines().noneMatch(l -> l.endsWith(" ")), table);
    }

    @Test
    void patternsPickTheRows() {
        assertEquals(List.of(ReadPattern.SEQUENTIAL, ReadPattern.RANDOM), DiskBench.Options.parse().patterns);
        assertEquals(List.of(ReadPattern.RANDOM), DiskBench.Options.parse("--patterns", "random").patterns);
        assertEquals(List.of(ReadPattern.SEQUENTIAL), DiskBench.Options.parse("--patterns", "Sequential").patterns);
    }

    @Test
    void aBadCommandLineIsOneLineAndExit2() {
        for (String[] args : List.of(new String[] {"--format", "xml"}, new String[] {"--size"},
                new String[] {"--bogus", "1"}, new String[] {"--size", "1KiB"}, new String[] {"--cache", "hot"},
                new String[] {"--depths", "0"}, new String[] {"--engines", "nope"}, new String[] {"--patterns", "diagonal"},
                new String[] {"--cgroup-limit", "lots"}, new String[] {"--row-bytes", "1KiB"},
                new String[] {"--row-bytes", "0"}, new String[] {"--repeat", "0"}, new String[] {"--settle", "-1s"},
                new String[] {"--settle", "soon"}, new String[] {"--jit-settle", "-1s"},
                new String[] {"--dir", "target/no-such-dir"}, new String[] {"--ring-flags", "sqpoll"},
                // A tiny run otherwise: the old code ran it, then failed writing the table (exit 1).
                tinyRunWith("--out", "target/no-such-dir/table.txt"), tinyRunWith("--out", "target"))) {
            StringWriter err = new StringWriter();
            int status = Cli.commandLine(new DiskBench.Options()).setErr(new PrintWriter(err)).execute(args);
            assertEquals(2, status, String.join(" ", args) + ": " + err);
            assertEquals(1, err.toString().lines().count(), String.join(" ", args) + ": " + err);
            assertTrue(err.toString().startsWith("bench-disk: "), err.toString());
        }
    }

    private static String[] tinyRunWith(String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("--size", "1MiB", "--block-sizes", "64KiB", "--depths", "1",
                "--engines", "mmap", "--patterns", "sequential", "--cache", "warm", "--no-fio", "--cgroup-limit", "none",
                "--dir", "target"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void helpListsTheDocumentedOptions() {
        StringWriter out = new StringWriter();
        int status = Cli.commandLine(new DiskBench.Options()).setOut(new PrintWriter(out)).execute("--help");
        assertEquals(0, status);
        for (String option : List.of("--size", "--format", "--out", "--dir", "--block-sizes", "--depths",
                "--random-ops", "--engines", "--patterns", "--cache", "--no-fio", "--cgroup-limit", "--repeat", "--settle",
                "--jit-settle", "--ring-flags")) {
            assertTrue(out.toString().contains(option), option + " missing from --help:\n" + out);
        }
        assertFalse(out.toString().contains("--child-row"), "the internal option shows in --help");
    }

    /** The beyond-RAM section reads at the run's deepest depth, in whatever order --depths lists them. */
    @Test
    void beyondRamReadsAtTheDeepestDepth() {
        DiskBench.Options o = DiskBench.Options.parse("--size", "8MiB", "--depths", "1,32,8");
        assertEquals(32, BeyondRam.depth(o));
        assertEquals(32, BeyondRam.spec(o, Path.of("f"), 8L << 20).concurrency());
        BeyondRam.specs(o, Path.of("f")).forEach(spec -> assertEquals(32, spec.concurrency(), spec.toString()));
        assertEquals(1, BeyondRam.depth(DiskBench.Options.parse("--depths", "1")));
    }

    @Test
    void optionsReachTheRun() {
        DiskBench.Options o = DiskBench.Options.parse("--size", "8MiB", "--block-sizes", "4KiB,64KiB", "--depths",
                "1,4", "--no-fio", "--cgroup-limit", "none", "--cache", "cold,warm");
        assertEquals(8L << 20, o.size);
        assertEquals(List.of(4096L, 65536L), o.blockSizes);
        assertEquals(List.of(1, 4), o.depths);
        assertFalse(o.fio());
        assertEquals(0L, o.cgroupLimit);
        assertEquals(List.of("cold", "warm"), o.caches);
    }

    @Test
    void rowBytesCapsSequentialSpansAndRandomOps() {
        DiskBench.Options o = DiskBench.Options.parse("--size", "8MiB", "--block-sizes", "64KiB", "--row-bytes", "1MiB",
                "--random-ops", "100");
        Path file = Path.of("data");
        var seq = DiskRows.rowSpec(o, file, io.xferbench.core.read.ReadPattern.SEQUENTIAL, 65536, 4);
        assertEquals(1L << 20, seq.span(), "a sequential row reads the first --row-bytes");
        assertEquals(16, seq.plan().ops());
        var random = DiskRows.rowSpec(o, file, io.xferbench.core.read.ReadPattern.RANDOM, 65536, 4);
        assertEquals(8L << 20, random.span(), "random rows range over the whole file");
        assertEquals(16, random.plan().ops(), "random ops capped at --row-bytes / block size");
        var small = DiskRows.rowSpec(DiskBench.Options.parse("--size", "8MiB"), file,
                io.xferbench.core.read.ReadPattern.RANDOM, 4096, 1);
        assertEquals(20_000, small.plan().ops(), "below the cap --random-ops holds");
    }

    @Test
    void theEstimateChargesBytesOrReadsAndCorrectsItselfByThePaceSoFar() {
        Path file = Path.of("data");
        // 1 GiB sequential in 1 MiB blocks: 1,024 reads, bytes dominate: 1024 MiB / 200 MiB/s = 5.12 s per run.
        var big = new io.xferbench.core.read.ReadSpec(file, 1L << 30, io.xferbench.core.read.ReadPattern.SEQUENTIAL,
                1 << 20, 1, 1, 42);
        // 20,000 random 4 KiB reads: reads dominate, 4 s per run.
        var small = new io.xferbench.core.read.ReadSpec(file, 1L << 30, io.xferbench.core.read.ReadPattern.RANDOM,
                4096, 1, 20_000, 42);
        assertEquals(0.5 + 5.12, RunEstimate.seconds(big, true), 1e-9);
        assertEquals(0.5 + 4.0, RunEstimate.seconds(small, true), 1e-9);
        // 1 GiB sequential in 4 KiB blocks: 262,144 O_DIRECT reads; buffered, readahead's large requests: bytes only.
        var readahead = new io.xferbench.core.read.ReadSpec(file, 1L << 30, io.xferbench.core.read.ReadPattern.SEQUENTIAL,
                4096, 1, 1, 42);
        assertEquals(0.5 + 262_144 / 5_000.0, RunEstimate.seconds(readahead, true), 1e-9);
        assertEquals(0.5 + 5.12, RunEstimate.seconds(readahead, false), 1e-9);
        RunEstimate e = new RunEstimate.Builder(java.time.Duration.ZERO).add(big, true, true, 2).add(small, true, true, 2).build();
        assertTrue(e.plan().startsWith("4 rows, 2.2 GiB in 42,048 reads: "), e.plan());
        assertTrue(e.plan().contains("roughly 20 s"), e.plan());
        // The first pair took twice its estimate: the 9 s left are reported as 18.
        assertEquals("2 of 4 rows after 22 s, about 18 s left",
                e.progress(2, 0, 5.62, true, java.time.Duration.ofMillis(22_480)));
    }

    @Test
    void settleIsWhatTheUserSaysOrWhatThisMachinesFreePageReportingNeeds() {
        assertEquals(java.time.Duration.ofMillis(1500), DiskBench.Options.parse("--settle", "1500ms").settle());
        assertEquals(java.time.Duration.ZERO, DiskBench.Options.parse("--settle", "0").settle());
        assertEquals(FreePageReporting.active() ? FreePageReporting.SETTLE : java.time.Duration.ZERO,
                DiskBench.Options.parse().settle());
    }

    @Test
    void repeatedPairsTurnTheirOrderSoNeitherToolAlwaysGoesFirst() throws Exception {
        MethodAssumptions.assumeAvailable("fio twins", Fio.path() != null, Fio.missingReason());
        Path dir = Files.createTempDirectory(Path.of("target"), "disk-bench-");
        try {
            DiskBench.Options o = DiskBench.Options.parse(new String[] {"--size", "4MiB", "--block-sizes", "64KiB",
                    "--depths", "1", "--patterns", "sequential", "--engines", "sync-filechannel", "--cache", "warm",
                    "--repeat", "3", "--cgroup-limit", "none", "--dir", dir.toString()});
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            List<DiskRow> rows = DiskRows.run(o, new PrintStream(log, true));
            List<String> order = log.toString().lines()
                    .filter(l -> l.startsWith("bench-disk: java,") || l.startsWith("bench-disk: fio,"))
                    .map(l -> l.substring("bench-disk: ".length(), l.indexOf(','))).toList();
            assertEquals(List.of("java", "fio", "fio", "java", "java", "fio"), order, log.toString());
            assertEquals(3, rows.get(0).repeats());
            assertNotNull(rows.get(0).ratio());
            // The default --jit-settle (10 s): the engine ran untimed until two quiet windows in a row, or to the
            // bound, and the row says which.
            DiskRow java = rows.get(0);
            double windows = EngineWarmUp.QUIET_WINDOWS * EngineWarmUp.WINDOW_NANOS / 1e9;
            assertTrue(java.jitSettled() ? java.warmUpSeconds() >= windows : java.warmUpSeconds() >= 10, java.toString());
            assertNull(rows.get(1).warmUpSeconds(), "fio has no warm-up: " + rows.get(1));
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void repeatedPairsShowTheMedianRatiosPairWithTheRangeAndVerifyOnlyIfEveryRepeatDid() throws Exception {
        List<List<DiskRow>> pairs = List.of(pair(0.5, true), pair(1.2, false), pair(0.9, true));
        List<DiskRow> shown = TwinPairs.representative(pairs);
        DiskRow java = shown.get(0);
        assertEquals(0.9, java.ratio(), 1e-9, "the pair with the median ratio");
        assertEquals(0.9 * 100, java.mibPerSec(), 1e-9, "the median pair's own numbers, not a mix");
        assertEquals(0.5, java.ratioMin(), 1e-9);
        assertEquals(1.2, java.ratioMax(), 1e-9);
        assertEquals(3, java.repeats());
        assertEquals(Boolean.FALSE, java.verified(), "one unverified repeat makes the row unverified");
        assertEquals(100, shown.get(1).mibPerSec(), 1e-9, "the median pair's fio row");
        assertEquals(3, shown.get(1).repeats());
        assertTrue(DiskTable.format(Map.of(), shown, "table").contains("0.90 (0.50–1.20 of 3)"), DiskTable.format(Map.of(), shown, "table"));
        assertEquals(List.of(pairs.get(0).get(0)), TwinPairs.representative(List.of(List.of(pairs.get(0).get(0)))),
                "one run is shown as it is");
    }

    @Test
    void aRepeatedRunAlternatesTheToolsAndKeepsOnePairPerRow() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "disk-bench-");
        try {
            DiskBench.Options o = DiskBench.Options.parse(new String[] {"--size", "4MiB", "--block-sizes", "64KiB",
                    "--depths", "2", "--random-ops", "32", "--engines", "odirect-jdk,io-uring-odirect", "--repeat", "2",
                    "--cgroup-limit", "none", "--settle", "0", "--jit-settle", "0", "--dir", dir.toString()});
            List<DiskRow> rows = DiskRows.run(o, new PrintStream(new ByteArrayOutputStream()));
            List<DiskRow> java = rows.stream().filter(r -> r.tool().equals("java") && r.span() == 4L << 20).toList();
            assertEquals(4, java.size(), "two engines × two patterns, one row each: " + rows);
            // Where O_DIRECT or io_uring is missing the rows say why (skipped); the rest must have run twice.
            for (DiskRow r : java.stream().filter(r -> r.skipped() == null).toList()) {
                assertEquals(2, r.repeats(), r.toString());
                assertTrue(r.verified(), r.toString());
                if (r.ratio() != null) {
                    assertTrue(r.ratioMin() <= r.ratio() && r.ratio() <= r.ratioMax(), r.toString());
                }
            }
        } finally {
            try (Stream<Path> left = Files.list(dir)) {
                assertEquals(0, left.count(), "the data file, or a SIGKILLed run's directory, was left behind");
            }
            Files.deleteIfExists(dir);
        }
    }

    private static List<DiskRow> pair(double ratio, boolean verified) {
        DiskRow java = new DiskRow("java", "e", "random", 4096, 1, true, "cold", 1 << 20, 0, 10, 10, ratio * 100, 1, 2,
                0, 0, 10, 1, 5, null, verified, ratio, ratio, ratio, 1, 0.5, true, null);
        DiskRow fio = new DiskRow("fio", "psync", "random", 4096, 1, true, "cold", 1 << 20, 0, 10, 10, 100, 1, 2, 0, 0,
                10, 1, 5, null, null, null, null, null, 1, null, null, null);
        return List.of(java, fio);
    }
}
