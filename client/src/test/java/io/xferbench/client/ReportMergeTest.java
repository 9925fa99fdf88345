package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Merging cooperating clients' rows: sums over the union span, overlap, what is refused. */
class ReportMergeTest {
    private static final MethodResult.Row ROW = MethodResult.Row.served(Direction.DOWNLOAD, "transfer-to", 64 * Sizes.MiB);

    private static MethodResult row(long bytes, int transfers, long fromMicros, long toMicros) {
        return new MethodResult(ROW, new MethodResult.Throughput(bytes, transfers, (toMicros - fromMicros) / 1e6, 1, 1, 1, List.of(1.0),
                null, null, null).measuredBetween(fromMicros, toMicros), new MethodResult.Latency(1, 2, 2),
                MethodResult.Cpu.of(0.5, 0.25, 10, 1, 1, 1), MethodResult.Cpu.of(9, 9, 9, 9, 1, 1),
                MethodResult.Syscalls.unavailable("perf not installed"), null, null, new MethodResult.Sharing(true, 1), 40, true, null, null);
    }

    private static ReportMerge.Input input(String name, String id, MethodResult... rows) {
        return new ReportMerge.Input(name, new Report(Map.of("clientId", id, "client", Map.of("host", "h-" + name)), List.of(rows)));
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
        assertThat(r.verified()).isTrue();
        ReportMerge.Clients clients = (ReportMerge.Clients) merged.environment().get("clients");
        assertThat(clients.count()).isEqualTo(2);
        assertThat(clients.members()).extracting(ReportMerge.Member::host).containsExactly("h-a", "h-b");
        assertThat(clients.overlapMinimum()).isCloseTo(1 / 3.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(merged.environment()).doesNotContainKeys("clientId", "client");
        assertThat(RunSummary.lines(merged)).anyMatch(l -> l.startsWith("2 clients merged (1/2 host h-a, 2/2 host h-b)"));
    }

    @Test
    void aFailedOrMissingRowFailsTheMergedRow() {
        MethodResult failed = MethodResult.failed(ROW, "verification failed");
        Report merged = ReportMerge.merge(List.of(input("a", "1/2", row(1, 1, 0, 1)), input("b", "2/2", failed)));
        assertThat(merged.results().get(0).error()).isEqualTo("b: verification failed");
        merged = ReportMerge.merge(List.of(input("a", "1/2", row(1, 1, 0, 1)), input("b", "2/2")));
        assertThat(merged.results().get(0).error()).contains("not in b");
    }

    @Test
    void idsMustBeDistinctAndCountTheReports() {
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", "1/2", row(1, 1, 0, 1)), input("b", "1/2", row(1, 1, 0, 1)))))
                .hasMessageContaining("two reports are client 1/2");
        assertThatThrownBy(() -> ReportMerge.merge(List.of(input("a", "1/3", row(1, 1, 0, 1)), input("b", "2/3", row(1, 1, 0, 1)))))
                .hasMessageContaining("is client 1/3, but 2 reports were given");
    }
}
