package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static MethodResult measured() {
        Map<String, Long> syscalls = new LinkedHashMap<>();
        syscalls.put("sendfile64", 2L);
        syscalls.put("futex", 10L);
        Map<String, Object> cpu = Map.of("userSeconds", 0.1, "systemSeconds", 0.2, "userSecondsPerGiB", 0.05, "systemSecondsPerGiB", 0.1);
        return new MethodResult("download", "transfer-to", 1L << 30, 2L << 30, 2, 0.5, 4096, 4000, 4200, List.of(4000.0, 4200.0),
                Map.of("p50", 250.0, "p99", 260.0, "max", 260.0), cpu, cpu, syscalls, 6.0, 0L, null,
                Map.of("beforeMin", 1000, "afterMin", 1000), true, null, null);
    }

    private static Report report() {
        return new Report(Map.of("settings", Map.of("repeat", 2)), List.of(
                measured(),
                MethodResult.skipped("download", "io-uring", 1L << 30, "Netty io_uring unavailable: kernel says no"),
                MethodResult.failed("download", "mmap", 1L << 30, "verification failed: CRC32C mismatch")));
    }

    @Test
    void tableShowsNumbersSkipReasonsAndFailures() {
        String table = ReportWriter.table(report());
        assertThat(table).contains("transfer-to").contains("4096 [4000..4200]").contains("futex=5 sendfile64=1")
                .contains("skipped: Netty io_uring unavailable: kernel says no")
                .contains("FAILED: verification failed: CRC32C mismatch");
        assertThat(report().anyFailed()).isTrue();
    }

    @Test
    void jsonHasTheDocumentedFieldsAndRoundTrips() throws Exception {
        String json = ReportWriter.render(report(), "json");
        JsonNode root = JSON.readTree(json);
        JsonNode first = root.get("results").get(0);
        for (String field : List.of("direction", "method", "bytes", "transfers", "seconds", "mibPerSec", "verified", "syscalls", "skipped")) {
            assertThat(first.has(field)).as(field).isTrue();
        }
        assertThat(first.get("syscalls").get("sendfile64").asLong()).isEqualTo(2);
        assertThat(root.get("results").get(1).get("skipped").asText()).contains("kernel says no");
        assertThat(root.get("results").get(1).get("syscalls").isNull()).isTrue();
        Report back = JSON.readValue(json, Report.class);
        assertThat(back.results()).hasSize(3);
        assertThat(back.results().get(0).mibPerSec()).isEqualTo(4096);
    }

    @Test
    void csvHasOneLinePerResultAndQuotesReasons() throws Exception {
        String csv = ReportWriter.render(report(), "csv");
        List<String> lines = csv.lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("direction,method,size");
        assertThat(lines.get(2)).contains("\"Netty io_uring unavailable: kernel says no\"");
    }
}
