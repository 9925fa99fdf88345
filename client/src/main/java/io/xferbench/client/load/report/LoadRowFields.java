package io.xferbench.client.load.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.engine.UnmeasuredErrors;
import io.xferbench.client.load.fileops.ReadBack;
import io.xferbench.client.load.report.LoadReport.Row;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.core.protocol.MeasurementReport;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One load row as the JSON writes it, and the CSV ({@link LoadCsv}): typed fields in their order, each named by its
 * component. What only some rows have is left out where a row has none: a skipped row has its reason and no figures, a
 * measured one figures and no reason; a group (JIT settling, repeated windows) is unwrapped into the row, or absent.
 */
record LoadRowFields(String server, String model, String client, String protocol, String operation, long fileSizeBytes,
                     int concurrency, @JsonInclude(Include.NON_NULL) String skipped, @JsonUnwrapped Figures figures) {

    static LoadRowFields of(Row row, List<Row> rows) {
        return new LoadRowFields(row.server(), row.model(), row.client(), row.protocol(), row.operation(), row.fileSize(),
                row.concurrency(), row.skipped(), row.skipped() != null ? null : Figures.of(row, rows));
    }

    /** JSON has no NaN: an unmeasured figure is null. */
    static Double num(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** A measured row: what ran, the client's window, what failed, the server's costs, the comparisons. */
    record Figures(String method, String methodRun, @JsonInclude(Include.NON_NULL) String noAnswer, @JsonUnwrapped Window window,
                   @JsonUnwrapped Failures failures, @JsonUnwrapped ServerCosts server, @JsonUnwrapped ClientCosts clientCosts,
                   @JsonUnwrapped VsNginx vsNginx, @JsonUnwrapped Repeated repeated, boolean verified) {
        static Figures of(Row row, List<Row> rows) {
            return new Figures(row.method(), row.methodRun(), row.noAnswer() ? "every request timed out: not a result" : null,
                    Window.of(row.result()), Failures.of(row), ServerCosts.of(row), ClientCosts.of(row.result()),
                    VsNginx.of(row, rows), row.repeats() == null ? null : Repeated.of(row.repeats()), row.verified());
        }
    }

    /** The client's measured window. */
    record Window(int clientThreads, double targetRatePerSec, long requests, double seconds, double requestsPerSec, Double mibPerSec,
                  Double latencyP50Millis, Double latencyP90Millis, Double latencyP99Millis, Double latencyP999Millis,
                  Double latencyMaxMillis) {
        static Window of(LoadResult r) {
            LoadResult.LatencySummary l = r.latency();
            return new Window(r.threads(), r.targetRatePerSecond(), r.requests(), r.seconds(), r.requestsPerSecond(),
                    num(r.mibPerSecond()), num(l.p50()), num(l.p90()), num(l.p99()), num(l.p999()), num(l.max()));
        }
    }

    /**
     * What failed, every window's: in it by cause (and per operation of a mix), what was still in flight at its end, what
     * failed outside it, the HTTP uploads' read-back.
     */
    record Failures(long errors, Map<String, Long> errorsByCause,
                    @JsonInclude(Include.NON_NULL) Map<String, LoadResult.OpCounts> operations, long unfinished,
                    long warmupErrors, Map<String, Long> warmupErrorsByCause, long drainErrors, Map<String, Long> drainErrorsByCause,
                    @JsonInclude(Include.NON_NULL) ReadBack readBack) {
        static Failures of(Row row) {
            LoadResult r = row.result();
            UnmeasuredErrors outside = row.unmeasuredOfAll();
            return new Failures(row.errorsByCause().values().stream().mapToLong(Long::longValue).sum(), row.errorsByCause(),
                    r.operations().isEmpty() ? null : r.operations(), r.unfinished(), outside.warmupCount(), outside.warmup(),
                    outside.drainCount(), outside.drain(), row.readBackOfAll());
        }
    }

    /** The server's CPU, threads and syscalls over the window, per request where divided. */
    record ServerCosts(Double serverCpuMicrosPerRequest, Integer serverThreadsPeak, Double serverJitCpuShare,
                       @JsonUnwrapped Settle settle, Long serverThreadsStarted, Integer serverCarrierThreads,
                       Double serverSyscallsPerRequest, Map<String, Double> serverSyscallsByNamePerRequest,
                       String serverSyscallsSource, String serverSyscallsUnavailable, Double serverContextSwitchesPerRequest) {
        static ServerCosts of(Row row) {
            MeasurementReport sr = row.serverReport();
            return new ServerCosts(num(row.serverCpuMicrosPerRequest()),
                    row.serverFigures() == null ? null : row.serverFigures().threadsPeak(),
                    row.serverFigures() == null ? null : num(row.serverFigures().jitShare()),
                    row.jitSettle() == null ? null : Settle.of(row.jitSettle()),
                    sr == null ? null : sr.threadsStarted(), sr == null || sr.carrierThreads() < 0 ? null : sr.carrierThreads(),
                    num(row.serverSyscallsPerRequest()), row.serverSyscallsByNamePerRequest(), row.serverSyscallsSource(),
                    row.serverSyscallsUnavailable(), num(row.serverContextSwitchesPerRequest()));
        }
    }

    /** How long the server was loaded, unmeasured, before the row's first window until its JIT was quiet. */
    record Settle(int jitSettleSlices, double jitSettleSeconds, Double jitSettleLastShare, boolean jitSettled) {
        static Settle of(JitSettle.Outcome s) {
            return new Settle(s.slices(), s.seconds(), num(s.lastShare()), s.settled());
        }
    }

    /** The load generator's own CPU: per request, and its busiest loop thread's share of the window. */
    record ClientCosts(Double clientCpuMicrosPerRequest, Double clientBusiestLoopShare) {
        static ClientCosts of(LoadResult r) {
            return new ClientCosts(num(r.clientCpuMicrosPerRequest()), num(r.clientBusiestLoopShare()));
        }
    }

    /** Requests/s and server CPU per request over nginx's sendfile row's of the same client, operation and concurrency. */
    record VsNginx(Double requestsPerSecVsNginx, Double serverCpuVsNginx) {
        static VsNginx of(Row row, List<Row> rows) {
            Optional<Row> ref = LoadReport.reference(row, rows);
            return new VsNginx(ref.map(x -> num(row.result().requestsPerSecond() / x.result().requestsPerSecond())).orElse(null),
                    ref.map(x -> num(row.serverCpuMicrosPerRequest() / x.serverCpuMicrosPerRequest())).orElse(null));
        }
    }

    /** A row measured in several windows: their spread and the ratios taken round by round ({@link Repeats}). */
    record Repeated(int repeats, double requestsPerSecMin, double requestsPerSecMax, List<Double> requestsPerSecByRound,
                    Double ratioToBestMedian, Double ratioToBestMin, Double ratioToBestMax, Double medianToBestMedian,
                    Integer fewestConnections, Double ratioToFewestConnectionsMedian, Double ratioToFewestConnectionsMin,
                    Double ratioToFewestConnectionsMax) {
        static Repeated of(Repeats rep) {
            Repeats.Spread best = rep.ratioToBest();
            Repeats.VsFewest few = rep.vsFewest();
            return new Repeated(rep.windows(), rep.requestsPerSecMin(), rep.requestsPerSecMax(), rep.requestsPerSecByRound(),
                    best == null ? null : best.median(), best == null ? null : best.min(), best == null ? null : best.max(),
                    rep.medianToBestMedian(), few == null ? null : few.connections(),
                    few == null ? null : few.ratio().median(), few == null ? null : few.ratio().min(),
                    few == null ? null : few.ratio().max());
        }
    }
}
