package io.xferbench.client.load.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The typed load settings write the fields, values and order the string-keyed maps did, optional ones only when set. */
class LoadSettingsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void loadWritesRequestsOrDurationNeverBoth() throws Exception {
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("fileSize", "50KiB");
        before.put("threads", 2);
        before.put("requests", 1000L);
        before.put("warmup", "500 ms");
        before.put("loop", "closed");
        assertThat(JSON.writeValueAsString(new LoadSettings.Load("50KiB", 2, 1000L, null, "500 ms", "closed")))
                .isEqualTo(JSON.writeValueAsString(before));
        Map<String, Object> ordered = new LinkedHashMap<>();
        ordered.put("fileSize", "50KiB");
        ordered.put("threads", 2);
        ordered.put("duration", "10000 ms");
        ordered.put("warmup", "500 ms");
        ordered.put("loop", "closed");
        assertThat(JSON.writeValueAsString(new LoadSettings.Load("50KiB", 2, null, "10000 ms", "500 ms", "closed")))
                .isEqualTo(JSON.writeValueAsString(ordered));
    }

    @Test
    void theBenchWritesItsOptionalSettingsOnlyWhenSet() throws Exception {
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("fileSize", "50KiB");
        before.put("xferbenchMethod", "m");
        before.put("xferbenchIoModels", List.of("platform"));
        before.put("threads", 2);
        before.put("duration", "10000 ms");
        before.put("operations", List.of("download"));
        before.put("uploadMethod", null);
        before.put("warmup", "1000 ms");
        before.put("jitSettle", "off");
        before.put("corkResponses", false);
        before.put("repeat", 1);
        before.put("loop", "closed");
        before.put("cache", "warm");
        before.put("serverAddress", "127.0.0.1");
        before.put("network", "loopback");
        LoadSettings.Bench plain = new LoadSettings.Bench("50KiB", "m", List.of("platform"), 2, null, "10000 ms", List.of("download"), null,
                "1000 ms", "off", null, false, 1, null, "closed", "warm", "127.0.0.1", "loopback", null);
        assertThat(JSON.writeValueAsString(plain)).isEqualTo(JSON.writeValueAsString(before));

        Map<String, Object> all = new LinkedHashMap<>();
        before.forEach((k, v) -> {
            if (k.equals("duration")) {
                all.put("requests", "100 (wrk: 10000 ms)");
            } else {
                all.put(k, v);
            }
            if (k.equals("jitSettle")) {
                all.put("ioUringRingSize", 64);
            }
            if (k.equals("repeat")) {
                all.put("repeat", 3);
                all.put("repeatWarmup", "200 ms");
            }
        });
        all.put("serverLauncher", "nsenter");
        LoadSettings.Bench full = new LoadSettings.Bench("50KiB", "m", List.of("platform"), 2, "100 (wrk: 10000 ms)", null,
                List.of("download"), null, "1000 ms", "off", 64, false, 3, "200 ms", "closed", "warm", "127.0.0.1", "loopback", "nsenter");
        assertThat(JSON.writeValueAsString(full)).isEqualTo(JSON.writeValueAsString(all));
    }
}
