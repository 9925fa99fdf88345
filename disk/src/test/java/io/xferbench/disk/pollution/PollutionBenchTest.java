package io.xferbench.disk.pollution;

import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.disk.MemoryCgroup;
import io.xferbench.disk.MemoryHierarchy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scenario end to end at a small size (a 384 MiB file, a 192 MiB cgroup, 50 hot files, a few seconds per mode):
 * both reads are verified, the buffered read leaves at most the cgroup's limit of the big file cached (the cgroup
 * bounds it) while O_DIRECT leaves none and keeps the hot set resident and the device busy, and the cgroup and the
 * run's files are gone afterwards. Skipped where no memory cgroup can be made (failing instead under
 * XFERBENCH_REQUIRE_ALL_METHODS=1).
 */
class PollutionBenchTest {
    @TempDir
    Path dir;

    /** Skips where no memory cgroup can be made, and fails there under XFERBENCH_REQUIRE_ALL_METHODS=1. */
    private static void requireMemoryCgroup() {
        MethodAssumptions.assumeAvailable("memory cgroup", new Availability(MemoryCgroup.unavailableReason()));
    }

    @Test
    void runsBufferedAndODirectInsideACgroupAndLeavesNothingBehind() throws Exception {
        requireMemoryCgroup();
        List<Integer> cpusBefore = CpuPlacement.allowedCpus(ProcessHandle.current().pid());
        PollutionOptions o = PollutionOptions.parse(new String[] {"--dir", dir.toString(), "--big-size", "384MiB",
                "--cgroup-limit", "192MiB", "--hot-files", "50", "--before", "1s", "--recover-cap", "5s",
                "--min-window-requests", "60", "--max-passes", "40", "--modes", "buffered-read,odirect-jna"});
        PollutionBench.Result result = PollutionBench.run(o, new PrintStream(OutputStream.nullOutputStream()));

        List<PollutionRow> rows = result.rows();
        assertEquals(List.of("buffered-read", "odirect-jna"), rows.stream().map(PollutionRow::mode).toList());
        PollutionRow buffered = rows.get(0);
        PollutionRow direct = rows.get(1);
        for (PollutionRow r : rows) {
            assertNull(r.skipped(), r.mode() + " skipped: " + r.skipped());
            assertEquals(Boolean.TRUE, r.bigVerified(), r.mode() + " read wrong bytes");
            // Read pass after pass until the during window held 60 hot requests: one 384 MiB read takes well under
            // the 1.5 s that 60 requests at 40 a second need, so more than one pass, each verified.
            assertTrue(r.bigPasses() >= 1, r.mode() + ": " + r);
            assertEquals(r.bigPasses() * 384 * Sizes.MiB, r.bigBytes(), r.mode() + ": " + r);
            assertTrue(r.hotRequestsDuring() >= 60 || r.bigPasses() == 40, r.mode() + ": during window short: " + r);
            assertEquals(192 * Sizes.MiB, r.cgroupLimit());
            assertTrue(r.hotResidencyBefore() >= 99, r.mode() + ": hot set not resident before: " + r);
            assertTrue(r.hotReqPerSecBefore() > 0 && r.hotReqPerSecDuring() > 0, r.mode() + ": no hot requests: " + r);
            // 1 s before at 40 a second holds too few: before runs on until 60, and the count is the window's.
            assertTrue(r.hotRequestsBefore() >= 60 && r.hotRequestsBefore() <= 120, r.mode() + ": " + r);
            assertTrue(r.hotRequestsAfter() > 0, r.mode() + ": " + r);
            assertTrue(r.hotP99Thin().contains("before"), "60 requests make a thin p99: " + r.hotP99Thin());
        }
        // The cgroup bounds what the buffered read may keep cached: at most its limit of the 384 MiB (50%).
        assertTrue(buffered.bigResidencyAfter() > 0 && buffered.bigResidencyAfter() <= 50.0,
                "buffered read's cached share of the big file " + buffered.bigResidencyAfter() + "%");
        assertEquals(0.0, direct.bigResidencyAfter(), "O_DIRECT left the big file in the page cache");
        assertTrue(direct.hotResidencyDuring() >= 95, "O_DIRECT evicted the hot set: " + direct);
        assertTrue(direct.hotResidencyDuring() >= buffered.hotResidencyDuring(), "O_DIRECT kept less of the hot set "
                + "resident than a buffered read: " + direct + " vs " + buffered);
        assertTrue(direct.deviceMiBDuring() >= 384L * direct.bigPasses(), "O_DIRECT read " + direct.deviceMiBDuring() + " MiB from the device");

        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the run's directory outlived it");
        }
        assertEquals(List.of(), ownGroups(), "the run's cgroup outlived it");
        assertTrue(result.environment().get("cgroup").contains("192MiB"), result.environment().toString());
        // Where two CPUs are allowed the reader ran on one of its own (checked inside the run from /proc), and this
        // JVM, pinned to the rest for the run, may use every CPU again.
        assertTrue(result.environment().get("cpus").startsWith(cpusBefore.size() > 1 ? "split: " : "shared: "),
                result.environment().get("cpus"));
        assertEquals(cpusBefore, CpuPlacement.allowedCpus(ProcessHandle.current().pid()), "this JVM was left pinned");
        if (VmTouch.path() != null) {
            // mincore and vmtouch, back to back at the read's end, count the same pages (a re-read between the two
            // may add a file: 1 of 50 is 2 points).
            for (PollutionRow r : rows) {
                assertTrue(Math.abs(r.hotResidencyEndOfRead() - r.hotResidencyVmtouch()) <= 4.0, "mincore "
                        + r.hotResidencyEndOfRead() + "% vs vmtouch " + r.hotResidencyVmtouch() + "%");
            }
        }
    }

    /**
     * The fourth arm: RWF_DONTCACHE reads the big file buffered, yet leaves none of it cached (a sequential reader to
     * the end drops every page it brought in), so the hot set stays resident and every pass comes from the device, as
     * with O_DIRECT; verified like every read. Skipped with the probe's reason where the kernel or --dir lacks the flag.
     */
    @Test
    void dontCacheReadsTheBigFileBufferedAndLeavesNoneOfItCached() throws Exception {
        requireMemoryCgroup();
        MethodAssumptions.assumeAvailable("dontcache", new Availability(dontCacheUnsupported(dir)));
        PollutionOptions o = PollutionOptions.parse(new String[] {"--dir", dir.toString(), "--big-size", "384MiB",
                "--cgroup-limit", "192MiB", "--hot-files", "50", "--before", "1s", "--recover-cap", "5s",
                "--min-window-requests", "60", "--max-passes", "40", "--modes", "dontcache"});
        PollutionRow r = PollutionBench.run(o, new PrintStream(OutputStream.nullOutputStream())).rows().get(0);
        assertEquals("dontcache", r.mode());
        assertNull(r.skipped(), "dontcache skipped: " + r.skipped());
        assertEquals(Boolean.TRUE, r.bigVerified(), "dontcache read wrong bytes");
        assertEquals(0.0, r.bigResidencyAfter(), "dontcache left the big file in the page cache: " + r);
        assertTrue(r.hotResidencyDuring() >= 95, "dontcache evicted the hot set: " + r);
        assertTrue(r.deviceMiBDuring() >= 384L * r.bigPasses(), "dontcache read " + r.deviceMiBDuring() + " MiB from the device: " + r);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the run's directory outlived it");
        }
    }

    /** The probe's answer for a file in {@code dir} (the run's files go there): null when dontcache reads work. */
    private static String dontCacheUnsupported(Path dir) throws Exception {
        Path probe = Files.write(dir.resolve("probe"), new byte[1]);
        try {
            return io.xferbench.nativeio.DontCacheProbe.unsupportedReason(probe);
        } finally {
            Files.delete(probe);
        }
    }

    @Test
    void aBadCommandLineIsOneLineAndExit2() {
        for (String[] args : List.of(new String[] {"--format", "xml"}, new String[] {"--big-size"},
                new String[] {"--bogus", "1"}, new String[] {"--modes", "buffered-read,nope"},
                new String[] {"--cpus", "half"},
                new String[] {"--block-size", "1000"}, new String[] {"--tolerance", "2"},
                new String[] {"--hot-rate", "0"}, new String[] {"--before", "soon"},
                new String[] {"--dir", "target/no-such-dir"},
                // A small run otherwise: the old code ran it, then failed writing the report (exit 1).
                new String[] {"--big-size", "16MiB", "--cgroup-limit", "128MiB", "--hot-files", "4", "--hot-file-size",
                    "64KiB", "--modes", "buffered-read", "--before", "1s", "--recover-cap", "1s", "--dir", "target",
                    "--out", "target/no-such-dir/report.txt"})) {
            StringWriter err = new StringWriter();
            int status = Cli.commandLine(new PollutionOptions()).setErr(new PrintWriter(err)).execute(args);
            assertEquals(2, status, String.join(" ", args) + ": " + err);
            assertEquals(1, err.toString().lines().count(), String.join(" ", args) + ": " + err);
            assertTrue(err.toString().startsWith("bench-pollution: "), err.toString());
        }
    }

    /**
     * Too little room in --dir is a usage error before a byte is written, checked after the run has removed what a
     * killed run left there (4 GiB by default): that may be what fills the disk.
     */
    @Test
    void theRoomIsCheckedAfterAKilledRunsDirectoryIsRemoved() throws Exception {
        requireMemoryCgroup();
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        String owner = dead.pid() + "." + dead.toHandle().info().startInstant().map(Instant::toEpochMilli).orElse(1L);
        Path left = Files.createDirectory(dir.resolve("xferbench-pollution-" + owner + "-1"));
        Files.write(left.resolve("big.dat"), new byte[4096]);
        StringWriter err = new StringWriter();
        int status = Cli.commandLine(new PollutionOptions()).setErr(new PrintWriter(err))
                .execute("--dir", dir.toString(), "--big-size", "1000000TiB"); // more than any disk here has
        assertEquals(2, status, err.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains("free, the run writes"), err.toString());
        assertFalse(Files.exists(left), "the killed run's directory was still there when the room was counted");
        try (Stream<Path> rest = Files.list(dir)) {
            assertEquals(List.of(), rest.toList(), "the refused run wrote something");
        }
    }

    @Test
    void helpListsTheDocumentedOptions() {
        StringWriter out = new StringWriter();
        assertEquals(0, Cli.commandLine(new PollutionOptions()).setOut(new PrintWriter(out)).execute("--help"));
        for (String option : List.of("--format", "--out", "--dir", "--big-size", "--cgroup-limit", "--hot-files",
                "--hot-file-size", "--connections", "--hot-rate", "--modes", "--block-size", "--before",
                "--recover-cap", "--tolerance", "--min-window-requests", "--max-passes")) {
            assertTrue(out.toString().contains(option), option + " missing from --help:\n" + out);
        }
    }

    /** Memory cgroups named after this JVM's pid (MemoryCgroup's naming). */
    private static List<Path> ownGroups() throws Exception {
        Path parent = MemoryHierarchy.detect().hierarchy().root();
        try (Stream<Path> groups = Files.list(parent)) {
            return groups.filter(g -> g.getFileName().toString().startsWith("xferbench-" + ProcessHandle.current().pid()
                    + "-")).toList();
        }
    }
}
