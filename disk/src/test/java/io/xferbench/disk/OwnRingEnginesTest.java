package io.xferbench.disk;

import io.xferbench.core.read.ReadEngine;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.read.ReadEngines;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;
import io.xferbench.core.read.RingFlags;
import io.xferbench.nativeio.uring.UringProbe;
import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engines on the suite's own ring, each beside the fio twin that runs with the same io_uring flags. */
class OwnRingEnginesTest {
    private static final Map<String, String> TWINS = Map.of(
            "uring-raw", "io_uring", "uring-raw-odirect", "io_uring",
            "uring-fixed", "io_uring --fixedbufs --registerfiles", "uring-fixed-odirect", "io_uring --fixedbufs --registerfiles",
            "uring-sqpoll", "io_uring --sqthread_poll", "uring-sqpoll-odirect", "io_uring --sqthread_poll");

    @Test
    void eachTwinRunsFioWithTheEnginesFlags() {
        ReadSpec spec = new ReadSpec(Path.of("f"), 1 << 20, ReadPattern.RANDOM, 4096, 32, 100, 42);
        for (Map.Entry<String, String> e : TWINS.entrySet()) {
            ReadEngine engine = ReadEngines.named(e.getKey()).orElseThrow();
            FioJob job = FioJob.of(engine.fioEngine(), engine.fioOptions(), spec, engine.direct());
            assertEquals(e.getValue(), job.label(), e.getKey());
            assertEquals(e.getKey().startsWith("uring-sqpoll"), job.cpuOfWholeProcess(), e.getKey() + ": whose CPU counts");
            List<String> command = job.command("fio");
            assertTrue(command.containsAll(engine.fioOptions()), command.toString());
            assertTrue(command.contains("--iodepth=32") && command.contains("--numjobs=1"), command.toString());
            assertTrue(command.contains("--direct=" + (e.getKey().endsWith("-odirect") ? 1 : 0)), command.toString());
        }
    }

    /** --ring-flags reaches every row's spec and its warm-up's, and the report says it in words and in typed JSON. */
    @Test
    void ringFlagsReachTheRowsTheirWarmUpTheHeaderAndTheJson() throws Exception {
        assertEquals(RingFlags.DEFAULT, DiskBench.Options.parse("--dir", "target").ringFlags);
        DiskBench.Options o = DiskBench.Options.parse("--ring-flags", "single-issuer", "--size", "64MiB", "--row-bytes",
                "16MiB", "--dir", "target", "--no-fio", "--settle", "0s");
        assertEquals(RingFlags.SINGLE_ISSUER, o.ringFlags);
        ReadSpec row = DiskRows.rowSpec(o, Path.of("target/f"), ReadPattern.RANDOM, 4096, 8);
        assertEquals(RingFlags.SINGLE_ISSUER, row.ringFlags());
        assertEquals(RingFlags.SINGLE_ISSUER, EngineWarmUp.shapeOf(row).ringFlags());

        List<DiskRow> rows = List.of(DiskRow.skipped("fio", "psync", "sequential", 4096, 1, true, "cold", 1 << 20, 0, "--no-fio"));
        String table = DiskTable.format(DiskEnvironment.describe(o, null), DiskSettings.of(o), rows, "table");
        assertTrue(table.contains("\n# ringFlags: single-issuer: SINGLE_ISSUER+DEFER_TASKRUN on the own rings, SINGLE_ISSUER "
                + "alone on uring-sqpoll's"), table);
        JsonNode json = new ObjectMapper().readTree(DiskTable.format(DiskEnvironment.describe(o, null), DiskSettings.of(o),
                rows, "json"));
        assertEquals("single-issuer", json.get("settings").get("ringFlags").asText());
        assertEquals("[\"SINGLE_ISSUER\",\"DEFER_TASKRUN\"]", json.get("settings").get("ringSetupFlags").toString());
        assertEquals("[\"SINGLE_ISSUER\"]", json.get("settings").get("sqPollRingSetupFlags").toString());
        JsonNode defaults = new ObjectMapper().readTree(DiskTable.format(Map.of(),
                DiskSettings.of(DiskBench.Options.parse("--dir", "target")), rows, "json"));
        assertEquals("[]", defaults.get("settings").get("ringSetupFlags").toString());
    }

    /**
     * The own-ring rows with SINGLE_ISSUER+DEFER_TASKRUN read the right bytes; where this kernel refuses the flags
     * each row is skipped with the probe's reason, not run without them.
     */
    @Test
    void aSingleIssuerRunVerifiesItsRowsOrSkipsThemWithTheKernelsReason() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "disk-ring-flags-");
        try {
            DiskBench.Options o = DiskBench.Options.parse(new String[] {"--size", "8MiB", "--block-sizes", "64KiB",
                    "--depths", "4", "--random-ops", "64", "--cache", "cold", "--settle", "0", "--jit-settle", "0",
                    "--cgroup-limit", "none", "--no-fio", "--engines", "uring-raw,uring-fixed,uring-sqpoll",
                    "--ring-flags", "single-issuer", "--dir", dir.toString()});
            List<DiskRow> java = DiskRows.run(o, new PrintStream(new ByteArrayOutputStream())).stream()
                    .filter(r -> r.tool().equals("java")).toList();
            assertEquals(6, java.size(), java.toString());
            UringProbe probe = UringProbe.here();
            for (DiskRow r : java) {
                if (r.skipped() == null) {
                    assertTrue(r.verified(), r.toString());
                } else {
                    assertTrue(!r.skipped().isBlank(), r.toString());
                }
            }
            if (probe.ring() == null && probe.deferTaskrun() == null) {
                java.stream().filter(r -> r.engine().equals("uring-raw"))
                        .forEach(r -> assertNull(r.skipped(), "the kernel takes the flags, yet: " + r.skipped()));
            } else if (probe.ring() == null) {
                java.stream().filter(r -> r.engine().equals("uring-raw"))
                        .forEach(r -> assertEquals(probe.singleIssuer() != null ? probe.singleIssuer() : probe.deferTaskrun(),
                                r.skipped()));
            }
            String reasons = java.stream().filter(r -> r.skipped() != null).map(DiskRow::skipped).distinct()
                    .collect(Collectors.joining("; "));
            MethodAssumptions.assumeAvailable("the own rings with SINGLE_ISSUER", java.stream().anyMatch(r -> r.skipped() == null),
                    reasons);
        } finally {
            RunDirectory.delete(dir);
        }
    }

    @Test
    void tinyRunVerifiesEveryOwnRingRowBesideItsTwin() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "disk-own-ring-");
        try {
            DiskBench.Options o = DiskBench.Options.parse(new String[] {"--size", "8MiB", "--block-sizes", "64KiB",
                    "--depths", "4", "--random-ops", "64", "--cache", "cold", "--settle", "0", "--jit-settle", "0",
                    "--cgroup-limit", "none", "--engines", String.join(",", TWINS.keySet()), "--dir", dir.toString()});
            List<DiskRow> rows = DiskRows.run(o, new PrintStream(new ByteArrayOutputStream()));
            List<DiskRow> java = rows.stream().filter(r -> r.tool().equals("java")).toList();
            Map<String, Long> ran = java.stream().filter(r -> r.skipped() == null)
                    .collect(Collectors.groupingBy(DiskRow::engine, Collectors.counting()));
            java.stream().filter(r -> r.skipped() == null).forEach(r -> assertTrue(r.verified(), r.toString()));
            // Each engine that can run here ran both patterns; one that cannot says why.
            java.stream().filter(r -> r.skipped() != null).forEach(r -> assertTrue(!r.skipped().isBlank(), r.toString()));
            ran.values().forEach(n -> assertEquals(2L, n));
            // Green only when something ran: a ring the probe says works must have run uring-raw, and a machine
            // without one skips with the engines' reasons.
            String reasons = java.stream().filter(r -> r.skipped() != null).map(r -> r.engine() + ": " + r.skipped())
                    .distinct().collect(Collectors.joining("; "));
            if (UringProbe.here().ring() == null) {
                assertTrue(ran.containsKey("uring-raw"), "the probe found a working ring, yet uring-raw did not run: " + reasons);
            }
            MethodAssumptions.assumeAvailable("the engines on the suite's own ring", !ran.isEmpty(), reasons);
            if (Fio.path() != null) {
                for (int i = 0; i + 1 < rows.size(); i++) {
                    DiskRow row = rows.get(i);
                    if (row.tool().equals("java") && row.skipped() == null) {
                        DiskRow twin = rows.get(i + 1);
                        assertEquals(TWINS.get(row.engine()), twin.engine(), row.engine() + "'s twin");
                        assertNull(twin.skipped(), twin.engine() + ": " + twin.skipped());
                        assertTrue(twin.ops() > 0, twin.toString());
                    }
                }
            }
        } finally {
            RunDirectory.delete(dir);
        }
    }
}
