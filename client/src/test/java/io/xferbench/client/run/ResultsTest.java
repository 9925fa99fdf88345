package io.xferbench.client.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.xferbench.client.result.MethodResult;
import io.xferbench.core.Sizes;
import io.xferbench.core.method.Direction;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.nativeio.ResourceUsage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The arithmetic from measured rounds to a row. */
class ResultsTest {
    private static TransferDriver.Job<AutoCloseable> job(Direction direction, long size) {
        MethodResult.Row row = direction == Direction.RELAY ? new MethodResult.Row(direction, "m", MethodResult.Scenario.SMALL, size, 1024)
                : MethodResult.Row.served(direction, "m", size);
        return new TransferDriver.Job<>(row, 1, () -> () -> { }, (c, i) -> null, c -> null);
    }

    private static TransferDriver.Round round(long millis, int transfers, long bytesEach) {
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < transfers; i++) {
            outcomes.add(new Outcome(bytesEach, 1_000_000L * (i + 1), null, 1000 - i, 900, 5_000_000, 2_000_000, -1));
        }
        return new TransferDriver.Round(millis * 1_000_000, outcomes);
    }

    private static MeasurementReport far(String json) throws Exception {
        return ProtocolJson.read(json.getBytes(StandardCharsets.UTF_8), MeasurementReport.class);
    }

    private static ResourceUsage client(double user, double system) {
        return new ResourceUsage((long) (user * 1e6), (long) (system * 1e6), 0, 0, 0, 0, 0, 0);
    }

    @Test
    void ratesAreMediansOverRoundsWithTheirRange() throws Exception {
        // Rounds of 64 MiB in 100, 50 and 200 ms: 640, 1280 and 320 MiB/s.
        List<TransferDriver.Round> rounds = List.of(round(100, 64, Sizes.MiB), round(50, 64, Sizes.MiB), round(200, 64, Sizes.MiB));
        MethodResult r = Results.of(job(Direction.DOWNLOAD, Sizes.MiB), true, rounds, client(0.25, 0.75), far("{\"cpuUserSeconds\": 0.1, \"cpuSystemSeconds\": 0.3, \"syscalls\": null, \"syscallsUnavailable\": \"no perf\", \"threadsPeak\": 23}"), Set.of());
        assertThat(r.throughput().mibPerSec()).isCloseTo(640, within(1e-6));
        assertThat(r.throughput().mibPerSecMin()).isCloseTo(320, within(1e-6));
        assertThat(r.throughput().mibPerSecMax()).isCloseTo(1280, within(1e-6));
        assertThat(r.throughput().repeatMibPerSec()).containsExactly(640.0, 1280.0, 320.0);
        assertThat(r.throughput().transfersPerSec()).isCloseTo(640, within(1e-6));
        assertThat(r.throughput().seconds()).isCloseTo(0.35, within(1e-9));
        assertThat(r.throughput().bytes()).isEqualTo(192 * Sizes.MiB);
        assertThat(r.throughput().transfers()).isEqualTo(192);
        assertThat(r.clientCpu().systemSecondsPerGiB()).isCloseTo(4.0, within(1e-9));
        assertThat(r.serverCpu().userMicrosPerTransfer()).isCloseTo(0.1e6 / 192, within(1e-9));
        assertThat(r.syscallCounts().byName()).isNull();
        assertThat(r.syscallCounts().unavailable()).isEqualTo("no perf");
        assertThat(r.residencyPermille()).isEqualTo(new MethodResult.Residency(1000 - 63, 900));
        assertThat(r.uploadPhasesMillis()).isNull();
        assertThat(r.row().measuredProcess()).isEqualTo("server");
        assertThat(r.serverThreadsPeak()).isEqualTo(23);
    }

    @Test
    void anEvenNumberOfRoundsTakesTheMeanOfTheMiddleTwo() throws Exception {
        List<TransferDriver.Round> rounds = List.of(round(100, 1, Sizes.MiB), round(50, 1, Sizes.MiB), round(200, 1, Sizes.MiB), round(25, 1, Sizes.MiB));
        MethodResult r = Results.of(job(Direction.DOWNLOAD, Sizes.MiB), true, rounds, client(0, 0), far("{}"), Set.of());
        assertThat(r.throughput().mibPerSec()).isCloseTo((10 + 20) / 2.0, within(1e-9));
    }

    @Test
    void emptyBodyExchangesHaveRequestsPerSecondAndSyscallsPerRequest() throws Exception {
        List<TransferDriver.Round> rounds = List.of(round(100, 1000, 0), round(200, 1000, 0), round(125, 1000, 0));
        MethodResult r = Results.of(job(Direction.RELAY, 0), true, rounds, client(0, 0), far("""
                {"cpuUserSeconds": 0.3, "cpuSystemSeconds": 0.6, "process": "proxy",
                 "syscalls": {"total": 15000, "bySyscall": {"splice": 12000, "futex": 0}, "ioUringSubmissions": 0}}"""), Set.of());
        assertThat(r.throughput().transfersPerSec()).isCloseTo(8000, within(1e-6));
        assertThat(r.throughput().transfersPerSecMin()).isCloseTo(5000, within(1e-6));
        assertThat(r.throughput().transfersPerSecMax()).isCloseTo(10000, within(1e-6));
        assertThat(r.throughput().mibPerSec()).isZero();
        assertThat(r.syscallCounts().perTransfer()).isCloseTo(5.0, within(1e-9));
        assertThat(r.syscallCounts().perGiB()).as("no bytes, no per-GiB figure").isNull();
        assertThat(r.syscallCounts().byName()).containsExactly(java.util.Map.entry("splice", 12000L), java.util.Map.entry("other", 3000L));
        assertThat(r.serverCpu().systemMicrosPerTransfer()).isCloseTo(200, within(1e-9));
        assertThat(r.serverCpu().systemSecondsPerGiB()).isNull();
        assertThat(r.row().relayBuffer()).isEqualTo(1024);
        assertThat(r.row().measuredProcess()).isEqualTo("proxy");
        assertThat(r.label()).isEqualTo("m 1KiB");
        // Latency is per exchange: 1..1000 ms in each round.
        assertThat(r.latencyMillis().p50()).isCloseTo(500, within(1.0));
        assertThat(r.latencyMillis().max()).isCloseTo(1000, within(1.0));
    }

    @Test
    void uploadsReportTheServersPhasesAndNoResidency() throws Exception {
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            outcomes.add(new Outcome(100, 10_000_000, null, -1, -1, i * 1_000_000L, i == 5 ? 0 : 3_000_000, -1));
        }
        Collections.shuffle(outcomes);
        MethodResult r = Results.of(job(Direction.UPLOAD, 100), true, List.of(new TransferDriver.Round(50_000_000, outcomes)), client(0, 0), far("{}"), Set.of());
        assertThat(r.uploadPhasesMillis()).isEqualTo(new MethodResult.UploadPhases(3.0, 3.0, null));
        assertThat(r.residencyPermille()).isNull();
        assertThat(r.serverThreadsPeak()).as("a server that did not count (older, or no procfs)").isNull();
    }

    @Test
    void otherClientsInTheWindowMakeTheRowSharedAndOwnConnectionsDoNot() throws Exception {
        List<TransferDriver.Round> rounds = List.of(round(100, 4, Sizes.MiB));
        String report = """
                {"process": "server", "cpuUserSeconds": 0.1, "cpuSystemSeconds": 0.1,
                 "overlap": {"connections": 2, "requests": 5, "peers": {"127.0.0.1:1000": 3, "127.0.0.1:2000": 2},
                             "peersComplete": true}}""";
        MethodResult own = Results.of(job(Direction.DOWNLOAD, Sizes.MiB), true, rounds, client(0, 0), far(report),
                Set.of("127.0.0.1:1000", "127.0.0.1:2000", "127.0.0.1:3000"));
        assertThat(own.sharing().shared()).isFalse();
        assertThat(own.sharing().sharedWithConnections()).isZero();
        MethodResult shared = Results.of(job(Direction.DOWNLOAD, Sizes.MiB), true, rounds, client(0, 0), far(report),
                Set.of("127.0.0.1:1000", "127.0.0.1:3000"));
        assertThat(shared.sharing().shared()).isTrue();
        assertThat(shared.sharing().sharedWithConnections()).isEqualTo(1);
        MethodResult alone = Results.of(job(Direction.DOWNLOAD, Sizes.MiB), true, rounds, client(0, 0), far("{}"), Set.of());
        assertThat(alone.sharing().shared()).as("no overlap reported: alone").isFalse();
    }

    @Test
    void contextSwitchesArePerGiBAndPerTransferOnBothSides() throws Exception {
        // 4 transfers of 256 MiB: 1 GiB.
        List<TransferDriver.Round> rounds = List.of(round(100, 4, 256 * Sizes.MiB));
        MethodResult r = Results.of(job(Direction.DOWNLOAD, 256 * Sizes.MiB), true, rounds,
                new ResourceUsage(0, 0, 30, 10, 0, 0, 0, 0),
                far("{\"voluntarySwitches\": 300, \"involuntarySwitches\": 100}"), Set.of());
        assertThat(r.serverCpu().voluntarySwitches()).isEqualTo(300L);
        assertThat(r.serverCpu().involuntarySwitches()).isEqualTo(100L);
        assertThat(r.serverCpu().contextSwitchesPerGiB()).isEqualTo(400.0);
        assertThat(r.serverCpu().contextSwitchesPerTransfer()).isEqualTo(100.0);
        assertThat(r.clientCpu().contextSwitchesPerGiB()).isEqualTo(40.0);
        assertThat(r.clientCpu().contextSwitchesPerTransfer()).isEqualTo(10.0);
    }
}
