package io.xferbench.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.NetworkLink;
import io.xferbench.core.metrics.SyscallCounts;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON shapes of INFO and MEASURE_END (docs/protocol.md): readable names, round trips, tolerant reading. */
class ProtocolJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void measurementReportKeepsItsFieldNamesAndRoundTrips() throws Exception {
        MeasurementReport report = new MeasurementReport("server", 0.5, 1.5, 300, 20, 0, 7,
                new SyscallCounts(100, Map.of("read", 40L), 0, 12), null,
                new WindowOverlap(1, 3, Map.of("127.0.0.1:4242", 3L), true), 12, 3, 41);
        byte[] bytes = ProtocolJson.write(report);
        JsonNode tree = JSON.readTree(bytes);
        assertThat(tree.fieldNames()).toIterable().containsExactly("process", "cpuUserSeconds", "cpuSystemSeconds",
                "voluntarySwitches", "involuntarySwitches", "majorFaults", "minorFaults", "syscalls", "syscallsUnavailable", "overlap",
                "threadsStarted", "carrierThreads", "threadsPeak");
        assertThat(tree.get("syscalls").get("bySyscall").get("read").asLong()).isEqualTo(40);
        assertThat(tree.get("overlap").get("peers").get("127.0.0.1:4242").asLong()).isEqualTo(3);
        assertThat(ProtocolJson.read(bytes, MeasurementReport.class)).isEqualTo(report);
    }

    @Test
    void anOlderOrNewerReportStillReads() throws Exception {
        MeasurementReport old = ProtocolJson.read("""
                {"cpuUserSeconds": 0.1, "cpuSystemSeconds": 0.2, "syscalls": null, "syscallsUnavailable": "no perf",
                 "someFutureField": {"x": 1}}""".getBytes(StandardCharsets.UTF_8), MeasurementReport.class);
        assertThat(old.cpuSystemSeconds()).isEqualTo(0.2);
        assertThat(old.overlap()).as("an older server says nothing: alone").isEqualTo(WindowOverlap.NONE);
        assertThat(old.threadsPeak()).as("an older server did not count").isZero();
        assertThatThrownBy(() -> ProtocolJson.read("[1]".getBytes(StandardCharsets.UTF_8), MeasurementReport.class))
                .isInstanceOf(ProtocolException.class);
    }

    /** What a server says of itself, reduced to one fact. */
    private record Cpus(int cpus) {
    }

    @Test
    void aServerDescriptionLeavesOutTheProxyFieldsAndUnlimitedMethodsTheirLimit() throws Exception {
        ServerDescription server = ServerDescription.server(new Cpus(2), List.of(
                MethodDescription.of("download", "stream", "streams", true, null),
                MethodDescription.of("upload", "mmap", "maps", true, null).withLimit(1L << 31, "int mapping")),
                new NetworkLink("veth", "xfb-server", "198.18.0.1", 1500, "noqueue",
                        Map.of("tcp-segmentation-offload", true), List.of("offloads: partial")));
        JsonNode tree = JSON.readTree(ProtocolJson.write(server));
        assertThat(tree.has("upstream")).isFalse();
        assertThat(tree.get("server").asText()).isEqualTo("xferbench");
        assertThat(tree.get("methods").get(0).has("maxLength")).isFalse();
        assertThat(tree.get("methods").get(0).has("unavailableReason")).as("always there, null when available").isTrue();
        assertThat(tree.get("methods").get(1).get("maxLength").asLong()).isEqualTo(1L << 31);
        ServerDescription back = ProtocolJson.read(ProtocolJson.write(server), ServerDescription.class);
        assertThat(back.methods("upload")).hasSize(1);
        assertThat(back.environment().get("cpus").asInt()).isEqualTo(2);
        assertThat(back.network()).as("typed, read back whole").isEqualTo(server.network());

        ServerDescription proxy = ServerDescription.proxy("h:1", "copy", 65536, EnvironmentInfo.describe(null), List.of(), null);
        assertThat(JSON.readTree(ProtocolJson.write(proxy)).get("relayBuffer").asInt()).isEqualTo(65536);
        assertThat(JSON.readTree(ProtocolJson.write(proxy)).has("network")).as("absent when unknown").isFalse();
    }

    @Test
    void aServerDescriptionWithANullEnvironmentReadsAsAnEmptyOne() throws Exception {
        byte[] json = "{\"server\":\"xferbench\",\"protocol\":1,\"pid\":1,\"environment\":null,\"methods\":[]}"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(ProtocolJson.read(json, ServerDescription.class).environment().isObject()).isTrue();
    }

    @Test
    void foreignConnectionsLeaveOutOwnPeersAndBoundTheUnlisted() {
        WindowOverlap complete = new WindowOverlap(2, 4, Map.of("a:1", 2L, "b:2", 2L), true);
        assertThat(complete.foreignConnections(List.of("a:1"))).isEqualTo(1);
        assertThat(complete.foreignConnections(List.of("a:1", "b:2"))).isZero();
        // 5 connections, 2 listed: the 3 unlisted may include at most our 1 unseen one.
        WindowOverlap cut = new WindowOverlap(5, 9, Map.of("a:1", 2L, "b:2", 2L), false);
        assertThat(cut.foreignConnections(List.of("a:1", "b:2", "c:3"))).isEqualTo(2);
    }
}
