package io.xferbench.client.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.client.UsageErrorsTest;
import io.xferbench.client.render.ReportFormat;
import io.xferbench.client.render.ReportWriter;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.method.Direction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Merging cooperating clients' rows: sums over the union span, overlap, what is refused. */
class ReportMergeTest {
    private static final MethodResult.Row ROW = MethodResult.Row.served(Direction.DOWNLOAD, "transfer-to", 64 * Sizes.MiB);

    private static MethodResult row(long bytes, int transfers, long fromMicros, long toMicros) {
        return new MethodResult(ROW, new MethodResult.Throughput(bytes, transfers, (toMicros - fromMicros) / 1e6, 1, 1, 1, List.of(1.0),
                null, null, null).measuredBetween(fromMicros, toMicros), new MethodResult.Latency(1, 2, 2),
                MethodResult.Cpu.of(0.5, 0.25, 10, 1, 1, 1), MethodResult.Cpu.of(9, 9, 9, 9, 1, 1),
                MethodResult.Syscalls.unavailable("perf not installed"), null, null, new MethodResult.Sharing(true, 1), 40, MethodResult.Status.MEASURED);
    }

    private static ReportMerge.Input input(String name, String id, MethodResult... rows) {
        return input(name, id, Map.of("server", "10.0.0.1:7070", "concurrency", 1), rows);
    }

    private static ReportMerge.Input input(String name, Object id, Map<String, Object> settings, MethodResult... rows) {
        Map<String, Object> environment = new java.util.HashMap<>(Map.of("settings", settings, "client", Map.of("host", "h-" + name)));
        if (id != null) {
            environment.put("clientId", id);
        }
        return new ReportMerge.Input(name, new Report(Environments.of(environment), List.of(rows)));
    }

    @Test
    void bytesOfAllClientsOverTheUnionOfTheirSpans() {
        // Client 1 measures 0..2 s, client 2 1..3 s: together 3 s, at once 1 s.
        Report merged = ReportMerge.merge(List.of(input("a", "1/2", row(Sizes.GiB, 16, 0, 2_000_000)),
                input("b", "2/2", row(2 * Sizes.GiB, 32, 1_000_000, 3_000_000))));
        MethodResult r = merged.results().get(0);
        assertThat(r.throughput().bytes()).isEqualTo(3 * Sizes.GiB);
        assertThat(r.throughput().transfers()).isEqualTo(48);
        assertThat(r.throughput().seconds()).isEqualTo(3.0);
        assertThat(r.throughput().mibPerSec()).isEqualTo(1024.0);
        assertThat(r.throughput().transfersPerSec()).isEqualTo(16.0);
        assertThat(r.clientCpu().userSeconds()).isEqualTo(1.0);
        assertThat(r.serverCpu()).as("the far side's windows overlap: not summed").isNull();
        assertThat(r.syscallCounts().unavailable()).isEqualTo(ReportMerge.FAR_SIDE_NOT_MERGED);
        assertThat(r.status()).isEqualTo(MethodResult.Status.MEASURED);
        ReportMerge.Clients clients = merged.clients();
        assertThat(clients.count()).isEqualTo(2);
        assertThat(clients.members()).extracting(ReportMerge.Member::host).containsExactly("h-a", "h-b");
        assertThat(clients.overlapMinimum()).isCloseTo(1 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(merged.environment().has("clientId") || merged.environment().has("client")).isFalse();
        assertThat(RunSummary.lines(merged)).anyMatch(l -> l.startsWith("2 clients merged (1/2 host h-a, 2/2 host h-b)"));
    }

    @Test
    void aFailedOrMissingRowFailsTheMergedRow() {
        MethodResult failed = MethodResult.failed(ROW, "verification failed");
        Report merged = ReportMerge.merge(List.of(input("a", "1/2", row(1, 1, 0, 1)), input("b", "2/2", failed)));
        assertThat(merged.results().get(0).status()).isEqualTo(new MethodResult.Status.Failed("b: verification failed"));
        merged = ReportMerge.merge(List.of(input("a", "1/2", row(1, 1, 0, 1)), input("b", "2/2")));
        assertThat(cause(merged.results().get(0))).contains("not in b");
    }

    @Test
    void idsMustBeDistinctAndCountTheReports() {
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", "1/2", row(1, 1, 0, 1)), input("b", "1/2", row(1, 1, 0, 1)))))
                .hasMessageContaining("two reports are client 1/2");
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", "1/3", row(1, 1, 0, 1)), input("b", "2/3", row(1, 1, 0, 1)))))
                .hasMessageContaining("is client 1/3, but 2 reports were given");
    }

    /** A report given twice, or a copy of it, would be added to itself: without ids that cannot be told. */
    @Test
    void reportsWithoutClientIdsAreRefused() {
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", null, Map.of(), row(1, 1, 0, 1)),
                input("a-copy", null, Map.of(), row(1, 1, 0, 1))))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a has no clientId: merge only reports of clients run with --client-id I/N");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "3/2", "", "0/2", "1/2/3"})
    void aClientIdThatIsNotIOfNIsRefusedNamingTheFile(String id) {
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", id, Map.of(), row(1, 1, 0, 1)),
                input("b", "2/2", Map.of(), row(1, 1, 0, 1))))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a: clientId '" + id + "' is not I/N with 1 <= I <= N");
        // A number, not a string, in a hand-edited report.
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", 5, Map.of(), row(1, 1, 0, 1)),
                input("b", "2/2", Map.of(), row(1, 1, 0, 1))))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a: clientId '5' is not I/N with 1 <= I <= N");
    }

    @Test
    void reportsOfDifferentServersOrSettingsAreRefused() {
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", "1/2", Map.of("server", "10.0.0.1:7070"), row(1, 1, 0, 1)),
                input("b", "2/2", Map.of("server", "10.0.0.2:7070"), row(1, 1, 0, 1))))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("b and a differ in their settings (server: 10.0.0.1:7070 vs 10.0.0.2:7070): merge only clients of one run");
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", "1/2", Map.of("concurrency", 1, "cache", "warm"), row(1, 1, 0, 1)),
                input("b", "2/2", Map.of("concurrency", 4), row(1, 1, 0, 1))))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency: 1 vs 4").hasMessageContaining("cache: warm vs (none)");
    }

    /** Upload's sender names each client's own bodies' directory: clients on two machines may keep them apart. */
    @Test
    void settingsOfEachClientsOwnMachineMayDiffer() {
        Report merged = ReportMerge.merge(List.of(input("a", "1/2", Map.of("sender", "... in /a"), row(1, 1, 0, 1)),
                input("b", "2/2", Map.of("sender", "... in /b"), row(1, 1, 0, 1))));
        assertThat(merged.results()).hasSize(1);
    }

    @Test
    void aRowTwiceInOneReportIsRefused() {
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", "1/2", row(1, 1, 0, 1), row(1, 1, 0, 1)),
                input("b", "2/2", row(1, 1, 0, 1), row(1, 1, 0, 1))))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a has the row download transfer-to 64MiB twice");
    }

    /** The command line: the same report twice is one line and a usage error, not a doubled rate. */
    @Test
    void mergingAReportWithItselfIsAUsageError(@TempDir Path dir) throws Exception {
        Path a = Files.writeString(dir.resolve("a.json"), ReportWriter.render(input("a", null, Map.of(), row(1, 1, 0, 1)).report(), ReportFormat.JSON));
        UsageErrorsTest.Run r = UsageErrorsTest.run("merge", a.toString(), a.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.USAGE);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("has no clientId");
    }

    /** The cause of a failed row; fails the test for a measured or skipped one. */
    private static String cause(MethodResult r) {
        assertThat(r.status()).isInstanceOf(MethodResult.Status.Failed.class);
        return ((MethodResult.Status.Failed) r.status()).cause();
    }
}
