package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.jmh.FileReadBenchmark;
import io.xferbench.jmh.gate.GateBenchmark.GateParam;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What the gate runs, and how the command line narrows it. */
class GateSuiteTest {
    private static final GateSuite SUITE = GateSuite.defaults();

    @Test
    void coversDownloadsUploadsRelaysAndFileReadsAtOneMiB() {
        assertThat(SUITE.benchmarks()).extracting(GateBenchmark::simpleName)
                .containsExactly("FileToSocketBenchmark", "SocketToFileBenchmark", "ProxyRelayBenchmark", "FileReadBenchmark");
        assertThat(SUITE.benchmarks()).allSatisfy(b -> assertThat(b.params()).contains(new GateParam("size", List.of("1048576"))));
        assertThat(SUITE.benchmarks()).extracting(GateBenchmark::methodParam).containsExactly("method", "method", "relay", "reader");
        // Readers have no registry: every @Param value runs.
        assertThat(SUITE.benchmarks().get(3).methods()).containsExactly(GateSuite.paramDefaults(FileReadBenchmark.class, "reader"));
        assertThat(SUITE.benchmarks()).allSatisfy(b -> assertThat(b.methods()).isNotEmpty());
        assertThat(SUITE.runs()).isEqualTo(SUITE.benchmarks().stream().mapToInt(b -> b.methods().size()).sum());
    }

    @Test
    void narrowsByBenchmarkMethodAndSize() {
        GateSuite s = SUITE.onlyBenchmarks(List.of("FileToSocketBenchmark")).onlyMethods(List.of("stream", "transfer-to"))
                .withSizes(List.of("65536", "1048576"));
        assertThat(s.benchmarks()).singleElement().satisfies(b -> {
            assertThat(b.methods()).containsExactly("stream", "transfer-to");
            assertThat(b.params()).contains(new GateParam("size", List.of("65536", "1048576")));
        });
        assertThat(s.runs()).isEqualTo(4);
        // A method id only some benchmarks have drops the others.
        assertThat(SUITE.onlyMethods(List.of("copy")).benchmarks()).extracting(GateBenchmark::simpleName).containsExactly("ProxyRelayBenchmark");
        assertThatThrownBy(() -> SUITE.onlyBenchmarks(List.of("FileToSocket"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown benchmark FileToSocket");
    }

    /**
     * A narrowed suite covers only its rows, so the rest of the baseline is not judged 'missing': scripts/perf-gate
     * --counts-only --benchmarks FileToSocketBenchmark --methods transfer-to said 'FAIL — 56 checks: 23 ok, ... 33
     * missing', exit 1, for a run that had no regression.
     */
    @Test
    void aNarrowedSuiteCoversItsOwnRowsOnly() {
        GateSuite s = SUITE.onlyBenchmarks(List.of("FileToSocketBenchmark")).onlyMethods(List.of("transfer-to"));
        String f2s = "io.xferbench.jmh.FileToSocketBenchmark.transfer";
        assertThat(s.covers(row(f2s, Map.of("method", "transfer-to", "size", "1048576", "buffer", "65536")))).isTrue();
        assertThat(s.covers(row(f2s, Map.of("method", "stream", "size", "1048576", "buffer", "65536")))).isFalse();
        assertThat(s.covers(row(f2s, Map.of("method", "transfer-to", "size", "65536", "buffer", "65536")))).isFalse();
        assertThat(s.covers(row("io.xferbench.jmh.ProxyRelayBenchmark.relay", Map.of("relay", "copy", "size", "1048576")))).isFalse();
        assertThat(SUITE.covers(row("io.xferbench.jmh.ProxyRelayBenchmark.relay", Map.of("relay", "copy", "size", "1048576",
                "buffer", "65536")))).isTrue();
    }

    private static BenchmarkResult row(String benchmark, Map<String, String> params) {
        return new BenchmarkResult(benchmark, new TreeMap<>(params), null, Map.of());
    }

    @Test
    void aConfirmingReRunTakesTheSuspectsAndTheirRuler() {
        BenchmarkResult mmap = result("io.xferbench.jmh.FileToSocketBenchmark.transfer", "method", "mmap");
        BenchmarkResult splice = result("io.xferbench.jmh.SocketToFileBenchmark.receive", "method", "splice");
        BenchmarkResult other = result("io.xferbench.jmh.FileToSocketBenchmark.transfer", "method", "transfer-to");
        GateSuite again = SUITE.onlyKeys(List.of(mmap, splice, other), List.of(mmap.key(), splice.key()), GatePolicy.DEFAULT);
        assertThat(again.benchmarks()).extracting(GateBenchmark::simpleName).containsExactly("FileToSocketBenchmark", "SocketToFileBenchmark");
        assertThat(again.benchmarks().get(0).methods()).containsExactly("stream", "mmap");
        assertThat(again.benchmarks().get(1).methods()).containsExactly("stream", "splice");
    }

    private static BenchmarkResult result(String benchmark, String param, String value) {
        return new BenchmarkResult(benchmark, new TreeMap<>(Map.of(param, value, "size", "1048576")),
                new Metric(1, 0, 1, 1, "ops/s"), Map.of());
    }
}
