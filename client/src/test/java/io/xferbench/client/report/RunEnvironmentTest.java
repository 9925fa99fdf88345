package io.xferbench.client.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.metrics.MachineDescription;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed settings and environment write the fields, values and order reports had as string-keyed maps. */
class RunEnvironmentTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Provenance PROVENANCE = Provenance.now(List.of("download"));
    private static final RunSettings.Rounds ROUNDS = new RunSettings.Rounds("127.0.0.1:7070", List.of(1L << 20, 1L << 30), 5, 1, 2, "crc32c");
    private static final MachineDescription MACHINE = EnvironmentInfo.describe(null);
    private static final JsonNode FAR = JSON.valueToTree(MACHINE);

    private static Map<String, Object> rounds() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("server", "127.0.0.1:7070");
        m.put("sizes", List.of(1L << 20, 1L << 30));
        m.put("repeat", 5);
        m.put("warmup", 1);
        m.put("concurrency", 2);
        m.put("verify", "crc32c");
        return m;
    }

    @Test
    void aDownloadOfACooperatingClientIsWrittenAsBefore() throws Exception {
        Map<String, Object> settings = rounds();
        settings.put("cache", "warm");
        settings.put("bufferSize", 65536);
        settings.put("unalignedBuffer", false);
        settings.put("receiver", "r");
        settings.put("tlsCipher", "TLS_AES_256_GCM_SHA384");
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("provenance", PROVENANCE);
        before.put("settings", settings);
        before.put("clientId", "1/2");
        before.put("startAt", "2026-05-01T12:00:00Z");
        before.put("client", MACHINE);
        before.put("network", null);
        before.put("server", Map.of("jdk", "x"));
        RunEnvironment now = new RunEnvironment(PROVENANCE, new RunSettings.Download(ROUNDS, "warm", 65536, false, "r", "TLS_AES_256_GCM_SHA384"), "1/2",
                "2026-05-01T12:00:00Z", MACHINE, null, null, JSON.valueToTree(Map.of("jdk", "x")));
        assertThat(JSON.writeValueAsString(now)).isEqualTo(JSON.writeValueAsString(before));
        assertThat(JSON.writeValueAsString(Report.of(now, List.of()).environment())).isEqualTo(JSON.writeValueAsString(before));
    }

    @Test
    void anUploadAloneLeavesOutTheCooperationFields() throws Exception {
        Map<String, Object> settings = rounds();
        settings.put("fsync", true);
        settings.put("bufferSize", 1 << 20);
        settings.put("unalignedBuffer", true);
        settings.put("sender", "s");
        settings.put("stored", "t");
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("provenance", PROVENANCE);
        before.put("settings", settings);
        before.put("client", MACHINE);
        before.put("network", null);
        before.put("server", MACHINE);
        RunEnvironment now = new RunEnvironment(PROVENANCE, new RunSettings.Upload(ROUNDS, true, 1 << 20, true, "s", "t"), null, null,
                MACHINE, null, null, FAR);
        assertThat(JSON.writeValueAsString(now)).isEqualTo(JSON.writeValueAsString(before));
    }

    @Test
    void aProxyRunWritesItsSettingsAndTheProxyFlatAfterItsPidAndUpstream() throws Exception {
        Map<String, Object> settings = rounds();
        settings.put("scenarios", List.of("small", "bulk"));
        settings.put("exchangesPerConnectionPerRound", 2000);
        settings.put("connectsPerConnectionPerRound", 500);
        settings.put("bodiesPerConnectionPerRound", 64);
        settings.put("upstreamMethod", "transfer-to");
        settings.put("proxyDefaultRelayBuffer", 65536);
        settings.put("measured", "proxy process (pid 7)");
        Map<String, Object> proxy = new LinkedHashMap<>();
        proxy.put("pid", 7L);
        proxy.put("upstream", "127.0.0.1:7070");
        proxy.putAll(JSON.convertValue(MACHINE, Map.class));
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("provenance", PROVENANCE);
        before.put("settings", settings);
        before.put("client", MACHINE);
        before.put("network", null);
        before.put("proxy", proxy);
        before.put("server", MACHINE);
        RunEnvironment now = new RunEnvironment(PROVENANCE, new RunSettings.Proxy(ROUNDS, List.of("small", "bulk"), 2000, 500, 64,
                "transfer-to", 65536, "proxy process (pid 7)"), null, null, MACHINE, null,
                new RunEnvironment.ProxySide(7, "127.0.0.1:7070", FAR), FAR);
        assertThat(JSON.writeValueAsString(now)).isEqualTo(JSON.writeValueAsString(before));
    }
}
