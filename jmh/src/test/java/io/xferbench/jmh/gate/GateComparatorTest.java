package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.jmh.gate.Verdict.Outcome;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The comparator on fixture runs in JMH's own JSON format (src/test/resources/gate). */
class GateComparatorTest {
    private static final String TRANSFER_TO = "io.xferbench.jmh.FileToSocketBenchmark.transfer[method=transfer-to,size=1048576]";
    private static final String MMAP = "io.xferbench.jmh.FileToSocketBenchmark.transfer[method=mmap,size=1048576]";

    private static GateReport compare(String current) throws Exception {
        List<BenchmarkResult> base = JmhResults.read(fixture("baseline-run.json"));
        return new GateReport(new GateComparator(GatePolicy.DEFAULT).compare(base, JmhResults.read(fixture(current))));
    }

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(GateComparatorTest.class.getResource("/gate/" + name).toURI());
    }

    private static Verdict find(GateReport r, String key, String metric) {
        return r.verdicts().stream().filter(v -> v.key().equals(key) && v.metric().startsWith(metric)).findFirst().orElseThrow();
    }

    @Test
    void identicalRunPasses() throws Exception {
        GateReport r = compare("baseline-run.json");
        assertThat(r.failed()).isFalse();
        assertThat(r.count(Outcome.REGRESSED)).isZero();
        assertThat(r.exitCode()).isEqualTo(GateReport.EXIT_OK);
    }

    @Test
    void aBusyMachineHalvingEveryScoreIsNoise() throws Exception {
        GateReport r = compare("noise-run.json");
        assertThat(r.failed()).as(r.table()).isFalse();
        // The absolute score halved and is shown, but not judged.
        assertThat(find(r, TRANSFER_TO, "score").outcome()).isEqualTo(Outcome.INFO);
        assertThat(find(r, TRANSFER_TO, "score").delta()).isCloseTo(-0.5, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aMethodLosingItsSyscallPathFailsOnCounts() throws Exception {
        GateReport r = compare("count-regression-run.json");
        assertThat(r.failed()).isTrue();
        assertThat(r.exitCode()).isEqualTo(GateReport.EXIT_REGRESSION);
        assertThat(find(r, TRANSFER_TO, "syscalls.read/op").outcome()).isEqualTo(Outcome.REGRESSED);
        assertThat(find(r, TRANSFER_TO, "syscalls.total/op").outcome()).isEqualTo(Outcome.REGRESSED);
        // sendfile64 disappearing is fewer syscalls of that name: reported, and the growth elsewhere fails the gate.
        assertThat(find(r, TRANSFER_TO, "syscalls.sendfile64/op").outcome()).isEqualTo(Outcome.IMPROVED);
    }

    @Test
    void aLargeSignificantRatioDropIsARegression() throws Exception {
        GateReport r = compare("ratio-regression-run.json");
        Verdict ratio = find(r, TRANSFER_TO, "ratio to stream");
        assertThat(ratio.outcome()).isEqualTo(Outcome.REGRESSED);
        assertThat(ratio.delta()).isLessThan(-0.2);
    }

    @Test
    void aLargeDropInsideTheConfidenceIntervalsIsNoise() throws Exception {
        GateReport r = compare("ratio-noise-run.json");
        Verdict ratio = find(r, TRANSFER_TO, "ratio to stream");
        assertThat(ratio.delta()).isLessThan(-0.2);
        assertThat(ratio.outcome()).isEqualTo(Outcome.OK);
        assertThat(ratio.note()).contains("noise");
        assertThat(r.failed()).isFalse();
    }

    @Test
    void improvementsPassAndAreReported() throws Exception {
        GateReport r = compare("improvement-run.json");
        assertThat(r.failed()).isFalse();
        assertThat(find(r, MMAP, "ratio to stream").outcome()).isEqualTo(Outcome.IMPROVED);
        assertThat(find(r, MMAP, "syscalls.total/op").outcome()).isEqualTo(Outcome.IMPROVED);
        assertThat(r.summary()).contains("PASS").contains("2 improved");
    }

    @Test
    void aMissingBenchmarkFailsAndANewOneIsReported() throws Exception {
        GateReport r = compare("missing-run.json");
        assertThat(find(r, MMAP, "score").outcome()).isEqualTo(Outcome.MISSING);
        assertThat(r.verdicts()).anyMatch(v -> v.key().contains("epoll-sendfile") && v.outcome() == Outcome.NEW);
        assertThat(r.failed()).isTrue();
    }

    @Test
    void nanScoresAreNotJudged() throws Exception {
        GateReport r = compare("nan-run.json");
        Verdict ratio = find(r, MMAP, "ratio to stream");
        assertThat(ratio.outcome()).isEqualTo(Outcome.OK);
        assertThat(ratio.note()).contains("NaN");
        assertThat(r.failed()).isFalse();
    }

    @Test
    void aRunWithoutCountsCannotPassTheCountsGate() throws Exception {
        GateReport r = compare("no-counts-run.json");
        assertThat(find(r, TRANSFER_TO, "syscall counts").outcome()).isEqualTo(Outcome.MISSING);
        assertThat(r.failed()).isTrue();
    }

    @Test
    void keysSortParamsSoVariantsNeverCollide() throws Exception {
        List<BenchmarkResult> base = JmhResults.read(fixture("baseline-run.json"));
        assertThat(base).extracting(BenchmarkResult::key).doesNotHaveDuplicates().contains(TRANSFER_TO);
        assertThat(base.get(0).keyWithout("method")).isEqualTo("io.xferbench.jmh.FileToSocketBenchmark.transfer[size=1048576]");
    }

    @Test
    void onlyPerOpAndPerMiBCountsAreGatedNotRatesOrContextSwitches() {
        GatePolicy p = GatePolicy.DEFAULT;
        assertThat(p.isCount("syscalls.total/op")).isTrue();
        assertThat(p.isCount("syscalls.sendfile64/op")).isTrue();
        assertThat(p.isCount("io_uring.submissions/op")).isTrue();
        assertThat(p.isCount("syscalls/MiB")).isTrue();
        assertThat(p.isCount("syscalls.total/s")).as("a rate depends on load").isFalse();
        assertThat(p.isCount("ctxsw/op")).as("scheduling depends on load").isFalse();
    }

    private static BenchmarkResult counted(String method, Map<String, Double> counts) {
        Map<String, Metric> secondary = new java.util.LinkedHashMap<>();
        counts.forEach((k, v) -> secondary.put(k, new Metric(v, Double.NaN, v, v, "calls/op")));
        return new BenchmarkResult("io.xferbench.jmh.FileToSocketBenchmark.transfer", new java.util.TreeMap<>(Map.of("method", method, "size", "1048576")),
                new Metric(100, 1, 99, 101, "ops/s"), secondary);
    }

    @Test
    void wakeupSyscallsAreReportedButNeverGated() {
        List<Verdict> v = new GateComparator(GatePolicy.DEFAULT).compare(
                List.of(counted("transfer-to", Map.of("syscalls.total/op", 3.0, "syscalls.futex/op", 0.1))),
                List.of(counted("transfer-to", Map.of("syscalls.total/op", 3.2, "syscalls.futex/op", 5.0))));
        assertThat(v).filteredOn(x -> x.metric().equals("syscalls.futex/op")).singleElement()
                .satisfies(x -> assertThat(x.outcome()).isEqualTo(Outcome.INFO));
        assertThat(new GateReport(v).failed()).isFalse();
    }

    @Test
    void pacedMethodsToleratePacingButNotAChangeOfPath() {
        GateComparator c = new GateComparator(GatePolicy.DEFAULT);
        BenchmarkResult base = counted("epoll-sendfile", Map.of("syscalls.total/op", 11.1, "syscalls.write/op", 0.06, "syscalls.sendfile64/op", 1.0));
        // The socket filled up more often: a few more sendfile and wake-up writes per op.
        BenchmarkResult paced = counted("epoll-sendfile", Map.of("syscalls.total/op", 12.0, "syscalls.write/op", 0.8, "syscalls.sendfile64/op", 1.9));
        assertThat(new GateReport(c.compare(List.of(base), List.of(paced))).failed()).isFalse();
        // The same method copying through a 64 KiB buffer instead: 16 writes and 16 reads per MiB.
        BenchmarkResult copying = counted("epoll-sendfile", Map.of("syscalls.total/op", 44.0, "syscalls.write/op", 16.0, "syscalls.pread64/op", 16.0));
        assertThat(new GateReport(c.compare(List.of(base), List.of(copying))).failed()).isTrue();
        // A non-paced method gets the tight band: one more sendfile per op is a regression there.
        BenchmarkResult blocking = counted("transfer-to", Map.of("syscalls.sendfile64/op", 1.0));
        BenchmarkResult twice = counted("transfer-to", Map.of("syscalls.sendfile64/op", 2.0));
        assertThat(new GateReport(c.compare(List.of(blocking), List.of(twice))).failed()).isTrue();
    }

    /** A loaded machine: 13x the futex calls, nothing else changed. The totals must not fail for it. */
    @Test
    void totalsAreJudgedWithoutWaitsAndWakeups() {
        GateComparator c = new GateComparator(GatePolicy.DEFAULT);
        BenchmarkResult base = counted("direct-io", Map.of("syscalls.total/op", 35.3, "syscalls/MiB", 35.3,
                "syscalls.futex/op", 0.2, "syscalls.pread64/op", 16.0));
        BenchmarkResult loaded = counted("direct-io", Map.of("syscalls.total/op", 38.1, "syscalls/MiB", 38.1,
                "syscalls.futex/op", 3.0, "syscalls.pread64/op", 16.0));
        assertThat(new GateReport(c.compare(List.of(base), List.of(loaded))).failed()).isFalse();
        // The same growth in a syscall that is not a wait still fails the total.
        BenchmarkResult copying = counted("direct-io", Map.of("syscalls.total/op", 38.1, "syscalls/MiB", 38.1,
                "syscalls.futex/op", 0.2, "syscalls.pread64/op", 16.0, "syscalls.write/op", 2.8));
        assertThat(c.compare(List.of(base), List.of(copying))).filteredOn(v -> v.metric().equals("syscalls.total/op"))
                .singleElement().satisfies(v -> assertThat(v.outcome()).isEqualTo(Outcome.REGRESSED));
    }

    @Test
    void uploadsRelaysAndUringReadersArePacedOtherReadersAreNot() {
        GatePolicy p = GatePolicy.DEFAULT;
        assertThat(p.isPaced(row("io.xferbench.jmh.SocketToFileBenchmark.receive", "method", "stream"))).isTrue();
        assertThat(p.isPaced(row("io.xferbench.jmh.ProxyRelayBenchmark.relay", "relay", "copy"))).isTrue();
        assertThat(p.isPaced(row("io.xferbench.jmh.FileReadBenchmark.read", "reader", "io-uring"))).isTrue();
        assertThat(p.isPaced(row("io.xferbench.jmh.FileReadBenchmark.read", "reader", "channel-direct"))).isFalse();
        // The same id in another benchmark is another row: the download io-uring sender is paced, transfer-to is not.
        assertThat(p.isPaced(row("io.xferbench.jmh.FileToSocketBenchmark.transfer", "method", "io-uring"))).isTrue();
        assertThat(p.isPaced(row("io.xferbench.jmh.FileToSocketBenchmark.transfer", "method", "transfer-to"))).isFalse();
    }

    @Test
    void pageProtectionChangesAreBackgroundNotThePath() {
        GateComparator c = new GateComparator(GatePolicy.DEFAULT);
        BenchmarkResult base = row("io.xferbench.jmh.FileReadBenchmark.read", "reader", "channel-direct",
                Map.of("syscalls.total/op", 8.1, "syscalls.pread64/op", 8.0, "syscalls.mprotect/op", 0.01));
        BenchmarkResult jitted = row("io.xferbench.jmh.FileReadBenchmark.read", "reader", "channel-direct",
                Map.of("syscalls.total/op", 16.1, "syscalls.pread64/op", 8.0, "syscalls.mprotect/op", 8.01));
        assertThat(new GateReport(c.compare(List.of(base), List.of(jitted))).failed()).isFalse();
        BenchmarkResult twice = row("io.xferbench.jmh.FileReadBenchmark.read", "reader", "channel-direct",
                Map.of("syscalls.total/op", 16.1, "syscalls.pread64/op", 16.0, "syscalls.mprotect/op", 0.01));
        assertThat(new GateReport(c.compare(List.of(base), List.of(twice))).failures()).singleElement().asString()
                .contains("syscalls.total/op").contains("syscalls.pread64/op");
    }

    private static BenchmarkResult row(String benchmark, String param, String value) {
        return row(benchmark, param, value, Map.of("syscalls.total/op", 1.0));
    }

    private static BenchmarkResult row(String benchmark, String param, String value, Map<String, Double> counts) {
        Map<String, Metric> secondary = new java.util.LinkedHashMap<>();
        counts.forEach((k, v) -> secondary.put(k, new Metric(v, Double.NaN, v, v, "calls/op")));
        return new BenchmarkResult(benchmark, new java.util.TreeMap<>(Map.of(param, value, "size", "1048576")),
                new Metric(100, 1, 99, 101, "ops/s"), secondary);
    }
}
