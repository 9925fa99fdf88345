package io.xferbench.disk;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;
import io.xferbench.nativeio.JvmFlags;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Random 4 KiB reads at the run's deepest {@code --depths} (32 by default) inside a memory cgroup, over a span that
 * fits in the limit and over the whole file (larger than the limit at real sizes): buffered (sync-filechannel, fio
 * psync) vs O_DIRECT (odirect-jna, fio psync direct). Each run starts cold and reads twice as many blocks as the span
 * holds (capped), so a buffered reader whose span fits gets cache hits on its second pass and one whose span does not
 * keeps missing. The Java reader is a child JVM started inside the group; fio likewise. The deepest depth, because
 * there the device serves the most reads a second and what a buffered miss costs on top of the device read (a page
 * allocated and charged, one reclaimed at the limit, the copy) decides: at depth 8 neither won steadily on this VM's
 * device (2026-11-28, 2026-12-07), at 32 O_DIRECT led in all four runs (docs/disk.md, "The crossover at depth 32").
 */
final class BeyondRam {
    static final long MIN_LIMIT = 256 * Sizes.MiB; // the child JVM itself must fit
    private static final int BLOCK = 4096;

    private BeyondRam() {
    }

    /** Told of each engine's rows as they finish: for the run's progress line. */
    @FunctionalInterface
    interface Finished {
        /** {@code runs} runs of {@code spec}, shown as {@code pair} (the Java row, then its fio twin if any). */
        void rows(ReadSpec spec, boolean direct, boolean cold, List<DiskRow> pair, int runs);
    }

    static List<DiskRow> rows(DiskBench.Options o, Path file, RowMeasurer m, String fio, String fioSkip,
                              PrintStream log, Cleanup cleanup, Finished finished) throws IOException {
        List<DiskRow> rows = new ArrayList<>();
        if (o.cgroupLimit != null && o.cgroupLimit == 0) {
            return rows;
        }
        long limit = limit(o);
        Set<Long> spans = spans(o);
        String reason = MemoryCgroup.unavailableReason();
        if (reason != null) {
            for (long span : spans) {
                for (String engine : List.of("sync-filechannel", "odirect-jna")) {
                    rows.add(DiskRow.skipped("java", engine, "random", BLOCK, depth(o), engine.startsWith("odirect"), "cold",
                            span, limit, "memory cgroup: " + reason));
                }
            }
            return rows;
        }
        MemoryCgroup group = MemoryCgroup.create(limit);
        // On Ctrl-C or SIGTERM too: a child reader still running would keep the group busy (EBUSY).
        cleanup.add(() -> {
            group.killMembers();
            group.close();
        });
        log.printf("bench-disk: beyond RAM inside %s (%s = %s)%n", group.dir(), group.version(),
                Sizes.format(limit));
        if (group.hierarchy().note() != null) {
            log.println("bench-disk: " + group.hierarchy().note());
        }
        for (long span : spans) {
            ReadSpec spec = spec(o, file, span);
            for (Map.Entry<String, Boolean> e : engines().entrySet()) {
                String engine = e.getKey();
                boolean direct = e.getValue();
                DiskRow java = child(group, spec, engine, o.settle(), o.jitSettle).withCgroupLimit(limit);
                DiskRow f = fioSkip != null
                        ? DiskRow.skipped("fio", "psync", "random", BLOCK, depth(o), direct, "cold", span, limit, fioSkip)
                        : m.fio(fio, FioJob.of("psync", List.of(), spec, direct), "cold", group::wrap).withCgroupLimit(limit);
                List<DiskRow> pair = TwinPairs.pair(java, f);
                rows.addAll(pair);
                finished.rows(spec, direct, true, fioSkip != null ? pair.subList(0, 1) : pair, runsPerEngine(fioSkip));
            }
        }
        return rows;
    }

    /** Threads (or reads in flight) of the section's rows: the run's deepest. */
    static int depth(DiskBench.Options o) {
        return java.util.Collections.max(o.depths);
    }

    private static long limit(DiskBench.Options o) {
        return o.cgroupLimit != null ? o.cgroupLimit : Math.max(o.size / 4, MIN_LIMIT);
    }

    /** Half the limit (fits) and the whole file. */
    private static Set<Long> spans(DiskBench.Options o) {
        return new LinkedHashSet<>(List.of(Math.min(o.size, limit(o) / 2) / BLOCK * BLOCK, o.size / BLOCK * BLOCK));
    }

    /** Each run reads twice the blocks its span holds (capped), so a span that fits gets hits on its second pass. */
    static ReadSpec spec(DiskBench.Options o, Path file, long span) {
        return new ReadSpec(file, span, ReadPattern.RANDOM, BLOCK, depth(o), Math.min(2 * (span / BLOCK), 10 * o.randomOps),
                42);
    }

    /** The section's Java engines, each with whether it reads with O_DIRECT (its fio twin does likewise). */
    static Map<String, Boolean> engines() {
        Map<String, Boolean> engines = new LinkedHashMap<>();
        engines.put("sync-filechannel", false);
        engines.put("odirect-jna", true);
        return engines;
    }

    /** Runs of one engine on one span: its Java row, and its fio twin's unless fio is left out. */
    static int runsPerEngine(String fioSkip) {
        return fioSkip == null ? 2 : 1;
    }

    /** What the section will read, for the run's estimate: one spec per span, each engine run {@link #runsPerEngine} times. */
    static List<ReadSpec> specs(DiskBench.Options o, Path file) {
        if (o.cgroupLimit != null && o.cgroupLimit == 0 || MemoryCgroup.unavailableReason() != null) {
            return List.of();
        }
        return spans(o).stream().map(span -> spec(o, file, span)).toList();
    }

    private static DiskRow child(MemoryCgroup group, ReadSpec spec, String engine, Duration settle, Duration jitSettle)
            throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String row = String.join(",", engine, spec.pattern().name(), Integer.toString(spec.blockSize()),
                Integer.toString(spec.concurrency()), Long.toString(spec.span()), Long.toString(spec.randomOps()),
                spec.file().toString(), "cold", Long.toString(settle.toMillis()), Long.toString(jitSettle.toMillis()));
        List<String> cmd = group.wrap(List.of(java, "-Xmx64m", JvmFlags.NATIVE_ACCESS, "-cp",
                System.getProperty("java.class.path"), DiskBench.class.getName(), "--child-row", row));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int rc = p.waitFor();
            if (rc != 0) {
                throw new IOException("the child reader in " + group.dir() + " exited " + rc
                        + (rc == 137 ? " (killed: the cgroup limit is too small for the JVM)" : ""));
            }
            return new ObjectMapper().readValue(out.trim(), DiskRow.class);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            p.destroyForcibly();
            try {
                p.waitFor(); // the group can be removed only once its members have exited
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
