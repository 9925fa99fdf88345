package io.xferbench.client.render;

import io.xferbench.client.report.Environments;
import io.xferbench.client.report.Report;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.method.Direction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small results of each kind of run whose report the client writes as HTML (download, upload, proxy), each with a
 * skipped and a failed row: what HtmlReportInBrowserTest renders through the real code and opens in a browser.
 */
final class BrowserFixtures {
    private static final MethodResult.Sharing ALONE = new MethodResult.Sharing(false, 0);

    private BrowserFixtures() {
    }

    /** The report kinds, by the name their screenshots get. */
    static Map<String, Report> reports() {
        Map<String, Report> reports = new LinkedHashMap<>();
        reports.put("download", download());
        reports.put("upload", upload());
        reports.put("proxy", proxy());
        return reports;
    }

    /** Several methods at two sizes (grouped bars), one skipped, one failed. */
    static Report download() {
        return report(List.of(
                bulk(Direction.DOWNLOAD, "transfer-to", 1L << 20, 3100, Map.of("sendfile64", 40L, "futex", 12L), null),
                bulk(Direction.DOWNLOAD, "transfer-to", 1L << 30, 6300, Map.of("sendfile64", 2L, "futex", 10L), null),
                bulk(Direction.DOWNLOAD, "stream", 1L << 20, 1900, Map.of("read", 4000L, "write", 4000L), null),
                bulk(Direction.DOWNLOAD, "stream", 1L << 30, 2400, Map.of("read", 16384L, "write", 16384L), null),
                bulk(Direction.DOWNLOAD, "io-uring-splice-linked", 1L << 30, 1630, Map.of("io_uring_enter", 4096L), null),
                MethodResult.skipped(MethodResult.Row.served(Direction.DOWNLOAD, "io-uring-read-send", 1L << 30),
                        "Netty io_uring unavailable: kernel says no"),
                MethodResult.failed(MethodResult.Row.served(Direction.DOWNLOAD, "mmap", 1L << 30), "verification failed: CRC32C mismatch")));
    }

    /** Two receivers with the server's phases, one skipped, one failed. */
    static Report upload() {
        return report(List.of(
                bulk(Direction.UPLOAD, "stream", 1L << 20, 900, Map.of("read", 300L, "write", 300L), new MethodResult.UploadPhases(40.5, 0.0, null)),
                bulk(Direction.UPLOAD, "splice", 1L << 20, 1200, Map.of("splice", 60L), new MethodResult.UploadPhases(30.2, 9.25, 4.0)),
                MethodResult.skipped(MethodResult.Row.served(Direction.UPLOAD, "io-uring", 1L << 20), "no io_uring here"),
                MethodResult.failed(MethodResult.Row.served(Direction.UPLOAD, "direct-io", 1L << 20), "verification failed: length 1048575")));
    }

    /** Empty-body exchanges in two scenarios and bodies through the proxy, one skipped, one failed. */
    static Report proxy() {
        return new Report(Environments.of(Map.of("settings", Map.of("repeat", 2),
                "proxy", Map.of("pid", 42, "jdk", "Temurin 25", "kernel", "Linux 6.18"))), List.of(
                exchanges("copy", MethodResult.Scenario.SMALL, 1024, 10000),
                exchanges("splice-pooled", MethodResult.Scenario.SMALL, null, 12500),
                exchanges("splice-pooled", MethodResult.Scenario.CONNECT, null, 500),
                new MethodResult(new MethodResult.Row(Direction.RELAY, "copy", MethodResult.Scenario.BULK, 1L << 20, 65536),
                        throughput(1L << 20, 1500), new MethodResult.Latency(0.7, 0.9, 1.2), cpu(), cpu(),
                        new MethodResult.Syscalls(Map.of("read", 32L, "write", 32L), 64.0, 64.0, 0L, null), null, null, ALONE, 4,
                        MethodResult.Status.MEASURED),
                MethodResult.skipped(new MethodResult.Row(Direction.RELAY, "io-uring", MethodResult.Scenario.SMALL, 0, null), "no io_uring here"),
                MethodResult.failed(new MethodResult.Row(Direction.RELAY, "splice", MethodResult.Scenario.CONNECT, 0, null),
                        "verification failed: 0-byte body expected")));
    }

    private static Report report(List<MethodResult> rows) {
        return new Report(Environments.of(Map.of("settings", Map.of("repeat", 2))), rows);
    }

    private static MethodResult bulk(Direction direction, String method, long size, double mibPerSec, Map<String, Long> syscalls,
                                     MethodResult.UploadPhases phases) {
        // Per GiB as the tables compute it per name: the two rounds moved 2 × size.
        double perGiB = syscalls.values().stream().mapToLong(Long::longValue).sum() * (double) (1L << 30) / (2 * size);
        return new MethodResult(MethodResult.Row.served(direction, method, size), throughput(size, mibPerSec),
                new MethodResult.Latency(250.0, 260.0, 270.0), cpu(), cpu(), new MethodResult.Syscalls(syscalls, perGiB, perGiB / 1024, 0L, null),
                new MethodResult.Residency(1000, 1000), phases, ALONE, 57, MethodResult.Status.MEASURED);
    }

    private static MethodResult exchanges(String relay, MethodResult.Scenario scenario, Integer buffer, double perSec) {
        return new MethodResult(new MethodResult.Row(Direction.RELAY, relay, scenario, 0, buffer),
                new MethodResult.Throughput(0, 4000, 0.4, 0, 0, 0, List.of(0.0, 0.0), perSec, perSec * 0.95, perSec * 1.01),
                new MethodResult.Latency(0.085, 0.2, 0.5), cpu(), cpu(),
                new MethodResult.Syscalls(Map.of("read", 8000L, "write", 8000L), null, 4.0, 0L, null),
                new MethodResult.Residency(1000, 1000), null, ALONE, null, MethodResult.Status.MEASURED);
    }

    /** Two rounds around the median: the charts get a whisker. */
    private static MethodResult.Throughput throughput(long size, double mibPerSec) {
        return new MethodResult.Throughput(2 * size, 2, 0.5, mibPerSec, mibPerSec * 0.97, mibPerSec * 1.02,
                List.of(mibPerSec * 0.97, mibPerSec * 1.02), 4.0, 3.9, 4.1);
    }

    private static MethodResult.Cpu cpu() {
        return new MethodResult.Cpu(0.1, 0.2, 0.05, 0.1, 50.0, 100.0, 3000L, 1000L, 2000.0, 1.5);
    }
}
