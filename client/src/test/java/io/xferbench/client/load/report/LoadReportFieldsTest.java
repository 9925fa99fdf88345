package io.xferbench.client.load.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.engine.UnmeasuredErrors;
import io.xferbench.client.load.exchange.MethodsRun;
import io.xferbench.client.load.fileops.ReadBack;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.ServerSampler;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.protocol.MeasurementReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The JSON and CSV name a row's fields as tools read them, in their order: a skipped row its identity and reason; a
 * measured one every figure, the groups only some rows have (no answer, per-operation counts, read-back, JIT settling,
 * repeated windows) where it has them. The CSV's columns are the JSON's fields in the order the rows first have them.
 */
class LoadReportFieldsTest {
    private static final List<String> IDENTITY = List.of("server", "model", "client", "protocol", "operation", "fileSizeBytes",
            "concurrency");

    private static LoadResult result(long requests, Map<String, Long> errors, Map<String, LoadResult.OpCounts> operations) {
        return new LoadResult(50, 2, 0, requests, errors, 3, 1.5, requests / 1.5, 0.5, new LoadResult.LatencySummary(0.1, 0.2, 0.3, 0.4, 5),
                12.5, 0.42, operations, UnmeasuredErrors.NONE, new MethodsRun(new TreeMap<>(Map.of("sendfile", requests))));
    }

    private static LoadReport.Row plain() {
        SyscallCounts counts = new SyscallCounts(3500, Map.of("sendfile64", 1000L, "epoll_wait", 2000L), 0, 77);
        return new LoadReport.Row("xferbench", "platform", "xferbench", "native", "download", 51200, 50, result(1000, Map.of(), Map.of()),
                new ServerSampler.ServerFigures(120_000, 17, 0), new MeasurementReport("server", 1, 2, 3, 4, 5, 6, counts, null, null, 9, 4, 12),
                null, null, null, null, null, "sendfile");
    }

    private static LoadReport.Row noAnswer() {
        return new LoadReport.Row("xferbench", "virtual", "xferbench", "native", "download", 51200, 50,
                result(0, Map.of("TIMEOUT", 50L), Map.of()), null, null, null, null, null, null, null, "sendfile");
    }

    /** Every group a row can have: per-operation counts, read-back, JIT settling, several windows. */
    private static LoadReport.Row everything() {
        return new LoadReport.Row("xferbench", "netty-epoll", "xferbench", "http", "mix", 51200, 500,
                result(900, Map.of(), Map.of("download", new LoadResult.OpCounts(900, Map.of()))), null, null, null,
                new ReadBack(40, Map.of(), 40, 300, 0), null,
                new Repeats(List.of(600.0, 650.0), Map.of(), UnmeasuredErrors.NONE, new ReadBack(80, Map.of(), 80, 600, 0), true, new Repeats.Spread(0.9, 0.8, 1.0, 2), 0.95,
                        new Repeats.VsFewest(50, new Repeats.Spread(1.1, 1.0, 1.2, 2)), MethodsRun.NONE),
                new JitSettle.Outcome(12, 12.3, 0.01, true), null);
    }

    private static List<String> jsonFields(List<LoadReport.Row> rows, int row) throws Exception {
        JsonNode json = new ObjectMapper().readTree(LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, rows,
                LoadReportFormat.JSON));
        List<String> names = new ArrayList<>();
        json.get("rows").get(row).fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void aSkippedRowHasItsIdentityAndItsReason() throws Exception {
        List<String> expected = new ArrayList<>(IDENTITY);
        expected.add("skipped");
        assertThat(jsonFields(List.of(LoadReport.Row.skipped("nginx", "aio", "wrk", "http", 1024, 50, "no wrk")), 0))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void aMeasuredRowHasEveryFieldInItsOrderAndItsGroupsWhereItHasThem() throws Exception {
        List<String> expected = new ArrayList<>(IDENTITY);
        expected.addAll(List.of("method", "methodRun", "clientThreads", "targetRatePerSec", "requests", "seconds", "requestsPerSec",
                "mibPerSec", "latencyP50Millis", "latencyP90Millis", "latencyP99Millis", "latencyP999Millis", "latencyMaxMillis", "errors",
                "errorsByCause", "operations", "unfinished", "warmupErrors", "warmupErrorsByCause", "drainErrors", "drainErrorsByCause",
                "readBack", "serverCpuMicrosPerRequest", "serverThreadsPeak", "serverJitCpuShare", "jitSettleSlices", "jitSettleSeconds",
                "jitSettleLastShare", "jitSettled", "serverThreadsStarted", "serverCarrierThreads", "serverSyscallsPerRequest",
                "serverSyscallsByNamePerRequest", "serverSyscallsSource", "serverSyscallsUnavailable", "serverContextSwitchesPerRequest",
                "clientCpuMicrosPerRequest", "clientBusiestLoopShare", "requestsPerSecVsNginx", "serverCpuVsNginx", "repeats",
                "requestsPerSecMin", "requestsPerSecMax", "requestsPerSecByRound", "ratioToBestMedian", "ratioToBestMin", "ratioToBestMax",
                "medianToBestMedian", "fewestConnections", "ratioToFewestConnectionsMedian", "ratioToFewestConnectionsMin",
                "ratioToFewestConnectionsMax", "verified"));
        assertThat(jsonFields(List.of(everything()), 0)).containsExactlyElementsOf(expected);

        List<String> plain = jsonFields(List.of(plain()), 0);
        assertThat(plain).doesNotContain("noAnswer", "operations", "readBack", "jitSettleSlices", "repeats", "fewestConnections");
        assertThat(plain).containsSubsequence("errorsByCause", "unfinished", "drainErrorsByCause", "serverCpuMicrosPerRequest",
                "serverJitCpuShare", "serverThreadsStarted", "serverCpuVsNginx", "verified");
        assertThat(jsonFields(List.of(noAnswer()), 0)).containsSubsequence("methodRun", "noAnswer", "clientThreads");
    }

    @Test
    void theCsvColumnsAreTheJsonFieldsInTheOrderTheRowsFirstHaveThem() throws Exception {
        List<LoadReport.Row> rows = List.of(plain(), noAnswer(), LoadReport.Row.skipped("nginx", "aio", "wrk", "http", 1024, 50, "no wrk"));
        String csv = LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, rows, LoadReportFormat.CSV);

        List<String> columns = new ArrayList<>(jsonFields(rows, 0));
        columns.removeIf(name -> name.endsWith("ByCause"));
        columns.addAll(List.of("noAnswer", "skipped")); // after the first row's: they first appear in later rows
        List<String> lines = csv.lines().toList();
        assertThat(lines.get(0)).isEqualTo(String.join(",", columns));
        assertThat(lines).hasSize(4);
        assertThat(lines.get(3)).isEqualTo("nginx,aio,wrk,http,download,1024,50" + ",".repeat(columns.size() - 8) + ",no wrk");
        // A field the JSON writes as an object is the value as Java prints it; a null one is empty.
        assertThat(lines.get(1)).contains(",\"{epoll_wait=2.0, sendfile64=1.0, other=0.5}\",")
                .contains(",the server's own window: perf per thread,")
                .startsWith("xferbench,platform,xferbench,native,download,51200,50,sendfile,sendfile,2,0.0,1000,1.5,");
    }
}
