package io.xferbench.disk.pollution;

import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.process.ChildProcess;
import io.xferbench.core.process.ListeningLine;
import io.xferbench.core.read.ExpectedContent;
import io.xferbench.core.read.ReadPattern;
import io.xferbench.core.read.ReadSpec;
import io.xferbench.disk.BlockDevice;
import io.xferbench.disk.CgroupHost;
import io.xferbench.disk.Cleanup;
import io.xferbench.disk.DiskBench;
import io.xferbench.disk.KilledRunSweep;
import io.xferbench.disk.MemoryCgroup;
import io.xferbench.disk.RunDirectory;
import io.xferbench.nativeio.PageCache;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * scripts/bench-pollution: a memory cgroup holding an xferbench server that serves a hot set of small files to
 * clients, and, per mode, a child JVM in the same cgroup reading a big file; the hot set's residency, rate and p99
 * before, during and after the read. See docs/disk.md.
 */
public final class PollutionBench {
    /** sendfile(2) from the page cache: what a static-file server does with a hot small file. */
    static final String SERVER_METHOD = "transfer-to";
    private static final Duration SERVER_START = Duration.ofSeconds(60);

    private PollutionBench() {
    }

    /** The report of a run: how it was measured, and one row per mode. */
    record Result(Map<String, String> environment, List<PollutionRow> rows) {
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new PollutionOptions(), args));
    }

    /** Runs every mode and writes the report; 1 when a big read was not verified. */
    static int execute(PollutionOptions o) throws IOException, InterruptedException {
        Result r = run(o, System.err);
        String text = PollutionReport.format(r.environment(), r.rows(), o.format);
        if (o.out != null) {
            Files.writeString(o.out, text);
        } else {
            System.out.print(text);
        }
        boolean ok = r.rows().stream().allMatch(x -> x.skipped() != null || Boolean.TRUE.equals(x.bigVerified()));
        return ok ? 0 : Cli.FAILED;
    }

    static Result run(PollutionOptions o, PrintStream log) throws IOException, InterruptedException {
        String reason = MemoryCgroup.unavailableReason();
        if (reason != null) {
            throw new IOException("the scenario needs a memory cgroup: " + reason);
        }
        KilledRunSweep.run("bench-pollution", o.dir, "xferbench-pollution-", CgroupHost.system(), log);
        o.checkRoom();
        try (Cleanup cleanup = new Cleanup("bench-pollution")) {
            Path dir = RunDirectory.create(o.dir, "xferbench-pollution-");
            cleanup.add(() -> RunDirectory.delete(dir));
            Path big = dir.resolve("big.dat");
            HotSet hot = writeFiles(o, dir, big, cleanup, log);
            BlockDevice device = BlockDevice.of(big);
            long expected = ExpectedContent.digest(new ContentGenerator(DiskBench.SEED),
                    new ReadSpec(big, o.bigSize, ReadPattern.SEQUENTIAL, o.blockSize, 1, 1, 42));

            MemoryCgroup group = cgroup(o, cleanup, log);
            CpuPlacement cpus = placeCpus(o, cleanup, log);
            InetSocketAddress address = startServer(group, cpus, dir, cleanup);
            HotSetClients clients = new HotSetClients(address, hot.names(), hot.fileSize(), SERVER_METHOD, o.hotRate);
            cleanup.add(clients::close);

            PollutionScenario scenario = new PollutionScenario(o, group, cpus, hot, clients, big, expected, device,
                    log);
            List<PollutionRow> rows = new ArrayList<>();
            for (BigReadMode mode : o.modes) {
                rows.add(scenario.run(mode));
            }
            String firstError = clients.firstError();
            if (firstError != null) {
                log.println("bench-pollution: first hot request error: " + firstError);
            }
            return new Result(PollutionEnvironment.describe(o, o.dir, device, group, cpus, SERVER_METHOD), rows);
        }
    }

    /** Writes the big file (left out of the cache) and the hot set into {@code dir}. */
    private static HotSet writeFiles(PollutionOptions o, Path dir, Path big, Cleanup cleanup, PrintStream log)
            throws IOException {
        log.printf("bench-pollution: writing %s and %d x %s in %s%n", Sizes.format(o.bigSize), o.hotFiles,
                Sizes.format(o.hotFileSize), dir);
        DiskBench.generate(big, o.bigSize);
        // The whole file leaves the cache now, not at the first mode's eviction: freeing gigabytes of page cache
        // at once disturbed the first mode's "before" window for seconds (docs/disk.md).
        PageCache.evict(big);
        HotSet hot = HotSet.create(dir, o.hotFiles, o.hotFileSize, DiskBench.SEED + 1);
        cleanup.add(hot::close);
        return hot;
    }

    private static MemoryCgroup cgroup(PollutionOptions o, Cleanup cleanup, PrintStream log) throws IOException {
        MemoryCgroup group = MemoryCgroup.create(o.cgroupLimit);
        cleanup.add(() -> {
            group.killMembers(); // a big reader still running on Ctrl-C would keep the group busy (EBUSY)
            group.close();
        });
        log.printf("bench-pollution: cgroup %s (%s = %s)%n", group.dir(), group.version(),
                Sizes.format(group.limitBytes()));
        if (group.hierarchy().note() != null) {
            log.println("bench-pollution: " + group.hierarchy().note());
        }
        return group;
    }

    /** Pins this JVM per {@code --cpus}; undone at cleanup. */
    private static CpuPlacement placeCpus(PollutionOptions o, Cleanup cleanup, PrintStream log) throws IOException {
        CpuPlacement cpus = CpuPlacement.of(o.cpus.equals("split"));
        cpus.pinThisJvm();
        cleanup.add(cpus::restore);
        log.println("bench-pollution: CPUs " + cpus.describe());
        return cpus;
    }

    /** Starts the server serving {@code dir} inside {@code group}, checked to be there. */
    private static InetSocketAddress startServer(MemoryCgroup group, CpuPlacement cpus, Path dir, Cleanup cleanup)
            throws IOException, InterruptedException {
        ChildProcess server = CgroupJvm.start(group, cpus.serverPrefix(), "io.xferbench.server.ServerMain",
                List.of("--data-dir", dir.toString(), "--port", "0"));
        cleanup.add(server::close);
        InetSocketAddress address = ListeningLine.await(server, SERVER_START);
        server.discardOutput(); // the server's progress lines are not part of the report
        if (!group.hasMember(server.pid())) {
            throw new IOException("the server (pid " + server.pid() + ") is not in " + group.dir());
        }
        cpus.checkServer(server.pid());
        return address;
    }
}
