package io.xferbench.jmh.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The table from a real (trimmed) JMH result: control, transfer-to, stream and io-uring at 1 MiB. */
class JmhReportTest {

    private static JsonNode sample() throws IOException {
        try (InputStream in = JmhReportTest.class.getResourceAsStream("/jmh-result-sample.json")) {
            return new ObjectMapper().readTree(in);
        }
    }

    private static String render(JsonNode root, double min) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JmhReport.render(root, min, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void oneRowPerRunWithParamsAsSizes() throws IOException {
        List<JmhReport.Row> rows = JmhReport.rows(sample());
        assertThat(rows).extracting(JmhReport.Row::benchmark)
                .containsExactly("ControlBenchmark.noop", "FileToSocketBenchmark.transfer", "FileToSocketBenchmark.transfer",
                        "FileToSocketBenchmark.transfer");
        assertThat(rows.get(1).paramText()).isEqualTo("buffer=64KiB method=transfer-to size=1MiB");
        assertThat(rows.get(0).paramText()).isEmpty();
        assertThat(rows.get(1).error()).isNaN(); // JMH writes "NaN" as a string
    }

    @Test
    void tableNamesTheSyscallsOfEachMethod() throws IOException {
        String out = render(sample(), 0.05);
        List<String> lines = out.lines().toList();
        assertThat(lines.get(0)).startsWith("| benchmark ").contains("| ops/s ± 99.9% |", "| MiB/s |", "| syscalls/op (by name) ",
                "| ctxsw/op |", "| syscalls/MiB |", "| io_uring sqe/op |", "| floor/op |");
        assertThat(lines.get(1)).matches("\\|[-|]+\\|");
        String transferTo = lines.stream().filter(l -> l.contains("method=transfer-to")).findFirst().orElseThrow();
        assertThat(transferTo).contains("3.02: newfstat 1.00, copy_file_range 1.00, sendfile64 1.00, rest 0.021");
        String stream = lines.stream().filter(l -> l.contains("method=stream")).findFirst().orElseThrow();
        assertThat(stream).contains("read 16.0", "write 16.0");
        assertThat(out).contains("Harness floor (ControlBenchmark.noop)")
                .contains("No FileToSocketBenchmark.transfer result for method channel-heap");
    }

    @Test
    void minimumDecidesWhatIsNamed() {
        JmhReport.Row row = new JmhReport.Row("X.y", Map.of(), 1, Double.NaN, "ops/s",
                Map.of("syscalls.total/op", 10.0, "syscalls.read/op", 9.0, "syscalls.futex/op", 0.6, "syscalls.ioctl/op", 0.37,
                        "syscalls.lseek/op", 0.03));
        assertThat(JmhReport.syscallText(row, 0.5)).isEqualTo("10.0: read 9.00, futex 0.600, rest 0.400");
        // Below 0.5% of the total (0.05 here) is never named.
        assertThat(JmhReport.syscallText(row, 0.0)).isEqualTo("10.0: read 9.00, futex 0.600, ioctl 0.370, rest 0.030");
        JmhReport.Row uncounted = new JmhReport.Row("X.y", Map.of(), 1, Double.NaN, "ops/s", Map.of());
        assertThat(JmhReport.syscallText(uncounted, 0.05)).isEqualTo("-");
    }

    @Test
    void numbersKeepAboutThreeFigures() {
        assertThat(JmhReport.fmt(Double.NaN)).isEqualTo("-");
        assertThat(JmhReport.fmt(0.0001)).isEqualTo("0");
        assertThat(JmhReport.fmt(0.1234)).isEqualTo("0.123");
        assertThat(JmhReport.fmt(3.0201)).isEqualTo("3.02");
        assertThat(JmhReport.fmt(38.04)).isEqualTo("38.0");
        assertThat(JmhReport.fmt(6112.4)).isEqualTo("6,112");
    }

    @Test
    void cpuPerGibAndTheSqThreadsPartHaveColumnsWhereARowHasThem() throws IOException {
        JsonNode root = new ObjectMapper().readTree("""
                [{"jmhVersion":"1.37","benchmark":"io.xferbench.jmh.OwnRingReadBenchmark.read","forks":1,
                  "params":{"ring":"uring-raw"},
                  "primaryMetric":{"score":70.0,"scoreError":"NaN","scoreUnit":"ops/s"},
                  "secondaryMetrics":{"cpu.ms/GiB":{"score":120.0}}},
                 {"jmhVersion":"1.37","benchmark":"io.xferbench.jmh.OwnRingReadBenchmark.read","forks":1,
                  "params":{"ring":"uring-sqpoll"},
                  "primaryMetric":{"score":9.0,"scoreError":"NaN","scoreUnit":"ops/s"},
                  "secondaryMetrics":{"cpu.ms/GiB":{"score":1525.0},"cpu.sqpoll.ms/GiB":{"score":1038.0}}}]
                """);
        List<String> lines = render(root, 0.05).lines().toList();
        assertThat(lines.get(0)).contains("| CPU ms/GiB |", "| of it SQ thread |");
        assertThat(lines.stream().filter(l -> l.contains("ring=uring-raw")).findFirst().orElseThrow())
                .contains("| 120 ", "| - ");
        assertThat(lines.stream().filter(l -> l.contains("ring=uring-sqpoll")).findFirst().orElseThrow())
                .contains("| 1,525 ", "| 1,038 ");
        assertThat(render(sample(), 0.05).lines().findFirst().orElseThrow()).doesNotContain("CPU ms/GiB", "SQ thread");
    }

    @Test
    void saysSoWhenNothingWasCounted() throws IOException {
        JsonNode root = new ObjectMapper().readTree("""
                [{"jmhVersion":"1.37","benchmark":"io.xferbench.jmh.ControlBenchmark.noop","forks":1,
                  "primaryMetric":{"score":1.0E9,"scoreError":1.0E7,"scoreUnit":"ops/s"},"secondaryMetrics":{}}]
                """);
        String out = render(root, 0.05);
        assertThat(out).contains("1,000,000,000 ± 10,000,000").contains("No syscall counts: run with -prof syscalls");
    }

    @Test
    void tlsRowsShowTheirAllocationAndAProviderWithoutRowsIsSaid() throws IOException {
        JsonNode root = new ObjectMapper().readTree("""
                [{"jmhVersion":"1.37","benchmark":"io.xferbench.jmh.TlsEngineBenchmark.wrapUnwrap","forks":1,
                  "params":{"cipher":"TLS_AES_128_GCM_SHA256","provider":"jdk","size":"16384"},
                  "primaryMetric":{"score":40000.0,"scoreError":"NaN","scoreUnit":"ops/s"},
                  "secondaryMetrics":{"MiB":{"score":625.0},"gc.alloc.rate.norm":{"score":96.0},"syscalls.total/op":{"score":0.0001}}}]
                """);
        String out = render(root, 0.05);
        List<String> lines = out.lines().toList();
        assertThat(lines.get(0)).contains("| B alloc/op |");
        assertThat(lines.stream().filter(l -> l.contains("provider=jdk")).findFirst().orElseThrow())
                .contains("size=16KiB", "| 625 ", "| 96.0 ");
        assertThat(out).contains("No TlsEngineBenchmark.wrapUnwrap result for provider openssl: ")
                .doesNotContain("provider jdk");
        assertThat(render(sample(), 0.05).lines().findFirst().orElseThrow()).doesNotContain("alloc");
    }
}
