package io.xferbench.client.load.bench;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.fileops.FileOpsRun;
import io.xferbench.client.load.fileops.FileOpsWorkload;
import io.xferbench.client.load.fileops.ReadBack;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.target.CgroupSyscallWindow;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.LoadTarget;
import io.xferbench.client.load.target.ProcessTree;
import io.xferbench.client.load.target.ServerSampler;
import io.xferbench.client.load.target.ServerWatch;
import io.xferbench.client.load.target.WrkRun;
import io.xferbench.core.protocol.MeasurementReport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * One measured window of one row of a load bench (this generator's or wrk's load on one server), and the JIT settle
 * before a row's first; each says on stderr what it runs.
 */
final class CellWindows {
    private final LoadBenchCommand bench;

    CellWindows(LoadBenchCommand bench) {
        this.bench = bench;
    }

    JitSettle.Outcome settle(LoadBenchCommand.Cell cell, int loops, int crc, ConnectionDrain drain) throws IOException, InterruptedException {
        LoadTarget target = cell.target();
        System.err.printf(Locale.ROOT, "xferbench: %s %s, xferbench %s %s, %d connections: settling its JIT (at most %d s) ...%n",
                target.server(), target.model(), cell.protocol(), LoadBenchCommand.name(cell.op()), cell.connections(), bench.jitSettle.toSeconds());
        drain.awaitAndWarn(target.address().getPort());
        JitSettle watch = JitSettle.of(target.processes(), LoadReport.JIT_NOTED_SHARE);
        load(cell, LoadBenchCommand.plan(target.address(), cell.connections(), loops, Duration.ZERO, 0, bench.jitSettle), crc, watch);
        JitSettle.Outcome outcome = watch.outcome();
        System.err.printf(Locale.ROOT, "xferbench: %s after %.1f s of load, %d whole seconds watched (compiler threads: %s of "
                + "the server's CPU in the last)%n", outcome.settled() ? "settled" : "not settled", outcome.seconds(), outcome.slices(),
                LoadReport.f("%.0f %%", outcome.lastShare() * 100));
        return outcome;
    }

    LoadReport.Row window(LoadBenchCommand.Cell cell, int round, Duration warm, Optional<Path> wrk, int loops, int crc,
                                  ConnectionDrain drain) throws IOException, InterruptedException {
        LoadTarget target = cell.target();
        if (cell.client().equals("wrk")) {
            return wrk.isEmpty() ? LoadReport.Row.skipped(target.server(), target.model(), "wrk", "http", bench.fileSize,
                    cell.connections(), WrkRun.missingReason()) : wrkWindow(target, wrk.get(), cell.connections(), round, warm, loops, drain);
        }
        drain.awaitAndWarn(target.address().getPort());
        progress(target, "xferbench " + cell.protocol() + " " + LoadBenchCommand.name(cell.op()), cell.connections(), round, warm);
        ServerWatch watch = watch(target);
        FileOpsRun.Outcome o = load(cell, LoadBenchCommand.plan(target.address(), cell.connections(), loops, warm, bench.requests, bench.duration), crc, watch);
        if (o.skipped() != null) {
            // Should a server still refuse the probe, the row is skipped with its answer.
            return LoadReport.Row.skipped(target.server(), target.model(), "xferbench", cell.protocol(), LoadBenchCommand.name(cell.op()), bench.fileSize,
                    cell.connections(), o.skipped());
        }
        return windowRow(target, "xferbench", cell.protocol(), LoadBenchCommand.name(cell.op()), cell.connections(), o.result(), watch.figures(),
                watch.report(), watch.syscalls(), o.readBack());
    }

    /** One run of a cell's load (a window, or a slice of settling), watched by {@code observer}. */
    private FileOpsRun.Outcome load(LoadBenchCommand.Cell cell, LoadPlan plan, int crc, LoadEngine.WindowObserver observer)
            throws IOException, InterruptedException {
        if (cell.op() == LoadBenchCommand.FileOp.DOWNLOAD) {
            return new FileOpsRun.Outcome(LoadEngine.run(plan, cell.exchange(), observer), null, null);
        }
        boolean http = cell.protocol().equals("http");
        return FileOpsRun.run(plan, http ? FileOpsRun.Wire.overHttp() : FileOpsRun.Wire.overNative("", bench.uploadMethod),
                FileOpsWorkload.Kind.valueOf(cell.op().name()), bench.fileSize, crc, FileOpsWorkload.runId(cell.connections()),
                cell.exchange(), cell.exchange(), observer);
    }

    private LoadReport.Row wrkWindow(LoadTarget target, Path wrk, int connections, int round, Duration warm, int loops,
                                     ConnectionDrain drain) throws IOException, InterruptedException {
        String url = target.httpUrl(bench.fileSize);
        drain.awaitAndWarn(target.address().getPort());
        progress(target, "wrk download", connections, round, warm);
        WrkRun.run(wrk, url, connections, loops, warm, () -> { }, () -> { });
        // wrk's warm-up run closed its connections: the measured run starts on a server that has let them go.
        drain.awaitAndWarn(target.address().getPort());
        ServerSampler[] wrkSampler = new ServerSampler[1];
        ServerSampler.ServerFigures[] wrkFigures = new ServerSampler.ServerFigures[1];
        LoadResult w;
        CgroupSyscallWindow.Result counts;
        try (CgroupSyscallWindow syscalls = CgroupSyscallWindow.prepare(target.processes())) {
            w = WrkRun.run(wrk, url, connections, loops, bench.duration, () -> {
                syscalls.open();
                wrkSampler[0] = new ServerSampler(target.processes());
            }, () -> {
                syscalls.finish();
                wrkFigures[0] = finish(wrkSampler[0]);
            });
            counts = syscalls.finish(); // the window's, kept when it closed
        }
        return windowRow(target, "wrk", "http", "download", connections, w, wrkFigures[0], null, counts, null);
    }

    /**
     * A window's row; when the server's process died, its result carries the error and the row no server figures:
     * whatever answered was not the server, and its counters read across the death (a negative CPU per request).
     */
    private LoadReport.Row windowRow(LoadTarget target, String client, String protocol, String op, int connections, LoadResult result,
                                     ServerSampler.ServerFigures figures, MeasurementReport report, CgroupSyscallWindow.Result counts,
                                     ReadBack readBack) {
        ProcessTree processes = target.processes();
        String asked = op.equals("download") ? target.method() : null;
        if (!processes.rootAlive()) {
            System.err.printf(Locale.ROOT, "xferbench: %s %s: its server process (pid %d) exited; the row is no result%n",
                    target.server(), target.model(), processes.rootPid());
            return new LoadReport.Row(target.server(), target.model(), client, protocol, op, bench.fileSize, connections,
                    result.withError("server process exited"), null, null, null, readBack, null).withMethod(asked);
        }
        return new LoadReport.Row(target.server(), target.model(), client, protocol, op, bench.fileSize, connections, result, figures,
                report, counts, readBack, null).withMethod(asked);
    }

    private static ServerWatch watch(LoadTarget target) {
        return new ServerWatch(target.processes(), target.server().equals("xferbench") ? target.address() : null, "");
    }

    private static ServerSampler.ServerFigures finish(ServerSampler sampler) {
        try {
            return sampler.finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void progress(LoadTarget target, String client, int connections, int round, Duration warm) {
        System.err.printf(Locale.ROOT, "xferbench: %s %s, %s, %d connections, %s%s ...%n", target.server(), target.model(),
                client, connections, bench.requests > 0 && !client.startsWith("wrk") ? bench.requests + " requests"
                        : warm.plus(bench.duration).toMillis() + " ms", bench.repeat > 1 ? ", round " + (round + 1) + " of " + bench.repeat : "");
    }
}
