package io.xferbench.client.load.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadReportFormat;
import io.xferbench.client.load.report.TestEnvironments;
import io.xferbench.client.load.report.Repeats;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.ServerSampler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A row's windows folded into one: the median window shown, the spread, all windows' errors, ratios taken per round. */
class RepeatedRowsTest {
    private static LoadReport.Row window(String server, String model, double perSecond, double p99, Map<String, Long> errors) {
        LoadResult r = new LoadResult(4, 1, 0, (long) perSecond, errors, 0, 1, perSecond, 1,
                new LoadResult.LatencySummary(1, 2, p99, 4, 5), 1, 0.1, Map.of());
        return new LoadReport.Row(server, model, "xferbench", "native", "download", 1024, 4, r,
                new ServerSampler.ServerFigures(1000, 3, 0), null, null, null, null);
    }

    private static LoadReport.Row windowAt(String model, int connections, double perSecond) {
        LoadResult r = new LoadResult(4, 1, 0, (long) perSecond, Map.of(), 0, 1, perSecond, 1,
                new LoadResult.LatencySummary(1, 2, 3, 4, 5), 1, 0.1, Map.of());
        return new LoadReport.Row("xferbench", model, "xferbench", "native", "download", 1024, connections, r,
                new ServerSampler.ServerFigures(1000, 3, 0), null, null, null, null);
    }

    /** {@code row} as the JSON report of {@code rows} writes it. */
    private static JsonNode json(LoadReport.Row row, List<LoadReport.Row> rows) throws Exception {
        String report = LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, rows, LoadReportFormat.JSON);
        return new ObjectMapper().readTree(report).get("rows").get(rows.indexOf(row));
    }

    private static LoadReport.Row window(String model, double perSecond, double p99) {
        return window("xferbench", model, perSecond, p99, Map.of());
    }

    @Test
    void theMedianWindowStandsForTheRowWithTheRangeOfAllWindows() {
        List<LoadReport.Row> rows = RepeatedRows.merge(List.of(
                List.of(window("a", 1000, 7), window("a", 1200, 8), window("a", 900, 9))));

        LoadReport.Row a = rows.get(0);
        assertThat(a.result().requestsPerSecond()).isEqualTo(1000);
        assertThat(a.result().latency().p99()).isEqualTo(7); // the median window's own p99, not a median of p99s
        assertThat(a.repeats().windows()).isEqualTo(3);
        assertThat(a.repeats().requestsPerSecMin()).isEqualTo(900);
        assertThat(a.repeats().requestsPerSecMax()).isEqualTo(1200);
        assertThat(a.repeats().requestsPerSecByRound()).containsExactly(1000.0, 1200.0, 900.0);
        assertThat(a.repeats().ratioToBest()).isEqualTo(new Repeats.Spread(1, 1, 1, 3)); // the only model is its own best
    }

    @Test
    void theFirstWindowsSettleStaysWithTheRowWhicheverWindowIsItsMedian() {
        JitSettle.Outcome settle = new JitSettle.Outcome(5, 5.2, 0.01, true);
        List<LoadReport.Row> rows = RepeatedRows.merge(List.of(
                List.of(window("a", 900, 7).withJitSettle(settle), window("a", 1000, 8), window("a", 1200, 9)),
                List.of(window("b", 1000, 7), window("b", 900, 8), window("b", 1200, 9))));

        assertThat(rows.get(0).result().requestsPerSecond()).isEqualTo(1000); // round 2's window is a's median
        assertThat(rows.get(0).jitSettle()).isEqualTo(settle);
        assertThat(rows.get(1).jitSettle()).isNull();
    }

    @Test
    void ratiosAreTakenRoundByRoundSoADriftOfTheMachineCancels() {
        // The machine slows down over the rounds; b is always 0.9 of a in the same round, though its best round
        // beats a's worst.
        List<LoadReport.Row> rows = RepeatedRows.merge(List.of(
                List.of(window("a", 2000, 1), window("a", 1500, 1), window("a", 1000, 1)),
                List.of(window("b", 1800, 1), window("b", 1350, 1), window("b", 900, 1)),
                List.of(window("nginx", "sendfile", 5000, 1, Map.of()), window("nginx", "sendfile", 5000, 1, Map.of()),
                        window("nginx", "sendfile", 5000, 1, Map.of()))));

        Repeats.Spread b = rows.get(1).repeats().ratioToBest();
        assertThat(b.median()).isCloseTo(0.9, within(1e-9));
        assertThat(b.min()).isCloseTo(0.9, within(1e-9));
        assertThat(b.max()).isCloseTo(0.9, within(1e-9));
        assertThat(b.of()).isEqualTo(3);
        assertThat(rows.get(0).repeats().ratioToBest().median()).isEqualTo(1.0);
        assertThat(rows.get(2).repeats().ratioToBest()).isNull(); // nginx is not one of the models; it has its own columns
        assertThat(LoadReport.ratio(b)).isEqualTo("0.90 (0.90–0.90 of 3)");
    }

    @Test
    void modelsOfLikeSpeedAreLevelByTheirMediansThoughEachRoundsBestIsTheLuckiest() throws Exception {
        // a and b have the same three rates, in another order: a is the best of only one round, so its per-round
        // ratio sits under 1 (0.91), though its median is b's. c's median is 0.9 of theirs.
        List<LoadReport.Row> rows = RepeatedRows.merge(List.of(
                List.of(window("a", 1000, 1), window("a", 1100, 1), window("a", 900, 1)),
                List.of(window("b", 1100, 1), window("b", 900, 1), window("b", 1000, 1)),
                List.of(window("c", 900, 1), window("c", 1000, 1), window("c", 800, 1)),
                List.of(window("nginx", "sendfile", 5000, 1, Map.of()), window("nginx", "sendfile", 5000, 1, Map.of()),
                        window("nginx", "sendfile", 5000, 1, Map.of()))));

        assertThat(rows.get(0).repeats().ratioToBest().median()).isCloseTo(1000.0 / 1100, within(1e-9));
        assertThat(rows.get(0).repeats().medianToBestMedian()).isEqualTo(1.0);
        assertThat(rows.get(1).repeats().medianToBestMedian()).isEqualTo(1.0);
        assertThat(rows.get(2).repeats().medianToBestMedian()).isCloseTo(0.9, within(1e-9));
        assertThat(rows.get(3).repeats().medianToBestMedian()).isNull();
        assertThat(json(rows.get(2), rows).get("medianToBestMedian").asDouble()).isEqualTo(rows.get(2).repeats().medianToBestMedian());
    }

    @Test
    void eachRowIsComparedWithItsOwnRowAtTheFewestConnectionsRoundByRound() throws Exception {
        // The machine's speed halves from round 0 to round 1; in both, a at 1,000 connections makes 0.9 of its rate at 50.
        List<LoadReport.Row> rows = RepeatedRows.merge(List.of(
                List.of(windowAt("a", 50, 2000), windowAt("a", 50, 1000)),
                List.of(windowAt("a", 500, 1900), windowAt("a", 500, 950)),
                List.of(windowAt("a", 1000, 1800), windowAt("a", 1000, 900)),
                List.of(windowAt("b", 50, 1000), windowAt("b", 50, 2000))));

        assertThat(rows.get(0).repeats().vsFewest()).isNull(); // a row is not compared with itself
        assertThat(rows.get(1).repeats().vsFewest().connections()).isEqualTo(50);
        assertThat(rows.get(1).repeats().vsFewest().ratio().median()).isCloseTo(0.95, within(1e-9));
        Repeats.Spread a1000 = rows.get(2).repeats().vsFewest().ratio();
        assertThat(a1000.min()).isCloseTo(0.9, within(1e-9));
        assertThat(a1000.max()).isCloseTo(0.9, within(1e-9));
        assertThat(a1000.of()).isEqualTo(2);
        assertThat(rows.get(3).repeats().vsFewest()).isNull(); // b has one concurrency
        assertThat(json(rows.get(2), rows).get("fewestConnections").asInt()).isEqualTo(50);
        assertThat(json(rows.get(2), rows).get("ratioToFewestConnectionsMin").asDouble()).isEqualTo(a1000.min());
        assertThat(json(rows.get(0), rows).get("fewestConnections").isNull()).isTrue(); // written, as null
    }

    @Test
    void aWindowInWhichTheServerStillCompiledIsNamedWithItsJitShare() throws Exception {
        LoadResult r = new LoadResult(4, 1, 0, 1000, Map.of(), 0, 1, 1000, 1, new LoadResult.LatencySummary(1, 2, 3, 4, 5), 1, 0.1, Map.of());
        LoadReport.Row warming = new LoadReport.Row("xferbench", "netty-epoll sendfile", "xferbench", "native", "download", 1024, 50, r,
                new ServerSampler.ServerFigures(1_000_000, 3, 230_000), null, null, null, null);
        LoadReport.Row warm = new LoadReport.Row("xferbench", "netty-epoll sendfile", "xferbench", "native", "download", 1024, 500, r,
                new ServerSampler.ServerFigures(1_000_000, 3, 10_000), null, null, null, null);
        List<LoadReport.Row> rows = List.of(warming, warm);

        assertThat(json(warming, rows).get("serverJitCpuShare").asDouble()).isEqualTo(0.23);
        String table = LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, rows, LoadReportFormat.TABLE);
        assertThat(table).contains("JIT: ").contains("xferbench netty-epoll sendfile native 50 conns 23%")
                .doesNotContain("500 conns 1%"); // under 5 %: compilation no longer matters to the figures
    }

    @Test
    void theLegendGivesTheRowsSettleTimesAndNamesTheRowsWhoseServerNeverWentQuiet() throws Exception {
        LoadResult r = new LoadResult(4, 1, 0, 1000, Map.of(), 0, 1, 1000, 1, new LoadResult.LatencySummary(1, 2, 3, 4, 5), 1, 0.1, Map.of());
        LoadReport.Row quiet = new LoadReport.Row("xferbench", "netty-epoll sendfile", "xferbench", "native", "download", 1024, 50, r,
                new ServerSampler.ServerFigures(1_000_000, 3, 0), null, null, null, null)
                .withJitSettle(new JitSettle.Outcome(41, 42.6, 0.01, true));
        LoadReport.Row restless = new LoadReport.Row("xferbench", "netty-io-uring sendfile", "xferbench", "native", "download", 1024, 1000, r,
                new ServerSampler.ServerFigures(1_000_000, 3, 0), null, null, null, null)
                .withJitSettle(new JitSettle.Outcome(58, 60.4, 0.12, false));
        LoadReport.Row nginx = new LoadReport.Row("nginx", "sendfile", "xferbench", "http", "download", 1024, 50, r,
                new ServerSampler.ServerFigures(1_000_000, 3, 0), null, null, null, null);
        List<LoadReport.Row> rows = List.of(quiet, restless, nginx);

        JsonNode settled = json(restless, rows);
        assertThat(settled.get("jitSettleSlices").asInt()).isEqualTo(58);
        assertThat(settled.get("jitSettleSeconds").asDouble()).isEqualTo(60.4);
        assertThat(settled.get("jitSettleLastShare").asDouble()).isEqualTo(0.12);
        assertThat(settled.get("jitSettled").asBoolean()).isFalse();
        assertThat(json(nginx, rows).has("jitSettleSlices")).isFalse();
        String table = LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, rows, LoadReportFormat.TABLE);
        assertThat(table).contains("until the server's compiler threads took under 5% of its CPU in 3 slices of 1 s in a "
                + "row: 43-60 s per row; not quiet within --jit-settle: xferbench netty-io-uring sendfile native download 1000 conns "
                + "(12% in its last second).");
        assertThat(LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, List.of(nginx), LoadReportFormat.TABLE)).doesNotContain("JIT settle");
    }

    /** Rows that all settled for as long said "5-5 s per row". */
    @Test
    void equalSettleTimesAreOneNumber() throws Exception {
        LoadResult r = new LoadResult(4, 1, 0, 1000, Map.of(), 0, 1, 1000, 1, new LoadResult.LatencySummary(1, 2, 3, 4, 5), 1, 0.1, Map.of());
        List<LoadReport.Row> rows = List.of(50, 200).stream().map(conns -> new LoadReport.Row("xferbench", "netty-epoll sendfile",
                "xferbench", "native", "download", 1024, conns, r, new ServerSampler.ServerFigures(1_000_000, 3, 0), null, null, null, null)
                .withJitSettle(new JitSettle.Outcome(5, 5.02, 0.3, false))).toList();
        assertThat(LoadReport.render(TestEnvironments.NONE, TestEnvironments.SETTINGS, rows, LoadReportFormat.TABLE)).contains("in a row: 5 s per row;");
    }

    @Test
    void anErrorInAnyWindowIsTheRowsAndUnverifiesIt() throws Exception {
        List<LoadReport.Row> rows = RepeatedRows.merge(List.of(
                List.of(window("xferbench", "a", 1000, 1, Map.of()), window("xferbench", "a", 1100, 1, Map.of("io: reset", 2L)),
                        window("xferbench", "a", 1050, 1, Map.of("io: reset", 1L, "crc mismatch", 1L)))));

        LoadReport.Row a = rows.get(0);
        assertThat(a.result().requestsPerSecond()).isEqualTo(1050);
        assertThat(a.errorsByCause()).containsOnly(Map.entry("io: reset", 3L), Map.entry("crc mismatch", 1L));
        assertThat(a.verified()).isFalse();
        JsonNode json = json(a, rows);
        assertThat(json.get("errors").asLong()).isEqualTo(4);
        assertThat(json.get("repeats").asInt()).isEqualTo(3);
        assertThat(json.get("verified").asBoolean()).isFalse();
        assertThat(json.get("requestsPerSecMin").asDouble()).isEqualTo(1000.0);
        assertThat(json.get("requestsPerSecMax").asDouble()).isEqualTo(1100.0);
    }

    @Test
    void aSkippedWindowSkipsTheRow() {
        LoadReport.Row skipped = LoadReport.Row.skipped("nginx", "sendfile", "wrk", "http", 1024, 4, "no wrk");
        List<LoadReport.Row> rows = RepeatedRows.merge(List.of(List.of(skipped, skipped)));

        assertThat(rows.get(0).skipped()).isEqualTo("no wrk");
        assertThat(rows.get(0).repeats()).isNull();
    }
}
