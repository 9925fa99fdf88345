package io.xferbench.client.render;

import io.xferbench.client.report.Environments;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.report.Provenance;
import io.xferbench.client.report.Report;
import io.xferbench.client.result.MethodResult;
import io.xferbench.core.method.Direction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static MethodResult.Cpu cpu() {
        return new MethodResult.Cpu(0.1, 0.2, 0.05, 0.1, 50000.0, 100000.0, 3000L, 1000L, 2000.0, 1.5);
    }

    private static final MethodResult.Sharing ALONE = new MethodResult.Sharing(false, 0);

    private static MethodResult measured() {
        Map<String, Long> syscalls = new LinkedHashMap<>();
        syscalls.put("sendfile64", 2L);
        syscalls.put("futex", 10L);
        return new MethodResult(MethodResult.Row.served(Direction.DOWNLOAD, "transfer-to", 1L << 30),
                new MethodResult.Throughput(2L << 30, 2, 0.5, 4096, 4000, 4200, List.of(4000.0, 4200.0), 4.0, 3.9, 4.1),
                new MethodResult.Latency(250.0, 260.0, 260.0), cpu(), cpu(), new MethodResult.Syscalls(syscalls, 6.0, 6.0, 0L, null),
                new MethodResult.Residency(1000, 1000), null, ALONE, 57, MethodResult.Status.MEASURED);
    }

    /** 4000 empty-body exchanges through the copy relay with a 1 KiB buffer. */
    private static MethodResult exchanges() {
        Map<String, Long> syscalls = new LinkedHashMap<>();
        syscalls.put("read", 8000L);
        syscalls.put("write", 8000L);
        syscalls.put("futex", 100L);
        return new MethodResult(new MethodResult.Row(Direction.RELAY, "copy", MethodResult.Scenario.SMALL, 0, 1024),
                new MethodResult.Throughput(0, 4000, 0.4, 0, 0, 0, List.of(0.0, 0.0), 10000.0, 9500.0, 10100.0),
                new MethodResult.Latency(0.085, 0.2, 0.5), cpu(), cpu(), new MethodResult.Syscalls(syscalls, null, 4.025, 0L, null),
                new MethodResult.Residency(1000, 1000), null, ALONE, null, MethodResult.Status.MEASURED);
    }

    private static Report report() {
        return new Report(Environments.of(Map.of("settings", Map.of("repeat", 2))), List.of(
                measured(),
                MethodResult.skipped(MethodResult.Row.served(Direction.DOWNLOAD, "io-uring", 1L << 30), "Netty io_uring unavailable: kernel says no"),
                MethodResult.failed(MethodResult.Row.served(Direction.DOWNLOAD, "mmap", 1L << 30), "verification failed: CRC32C mismatch")));
    }

    @Test
    void tableShowsNumbersSkipReasonsAndFailures() {
        String table = ReportWriter.table(report());
        assertThat(table).contains("transfer-to").contains("4096 [4000..4200]").contains("futex=5 sendfile64=1")
                .contains("skipped: Netty io_uring unavailable: kernel says no")
                .contains("FAILED: verification failed: CRC32C mismatch");
        assertThat(report().anyFailed()).isTrue();
    }

    private static MethodResult download(String method, Map<String, Long> syscalls, long sqes) {
        return new MethodResult(MethodResult.Row.served(Direction.DOWNLOAD, method, 1L << 30),
                new MethodResult.Throughput(1L << 30, 1, 0.5, 2048, 2000, 2100, List.of(2048.0), 2.0, 2.0, 2.0),
                new MethodResult.Latency(500.0, 500.0, 500.0), cpu(), cpu(),
                new MethodResult.Syscalls(syscalls, 100.0, 100.0, sqes, null), null, null, ALONE, null, MethodResult.Status.MEASURED);
    }

    /** transfer-to's sendfile64 is shown although six other syscalls were counted more often. */
    @Test
    void theSyscallThatDefinesAMethodIsShownEvenWhenNotAmongTheLargest() {
        Map<String, Long> syscalls = new LinkedHashMap<>(Map.of("futex", 900L, "epoll_wait", 800L, "read", 700L,
                "write", 600L, "close", 500L, "openat", 400L, "sendfile64", 3L));
        String table = ReportWriter.table(new Report(Environments.of(Map.of()), List.of(download("transfer-to", syscalls, 0))));
        assertThat(table).contains("futex=900 epoll_wait=800 read=700 write=600 close=500 sendfile64=3")
                .doesNotContain("openat").doesNotContain("sqes");
        // Never called at all is shown too: the method did not do what defines it.
        syscalls.remove("sendfile64");
        assertThat(ReportWriter.table(new Report(Environments.of(Map.of()), List.of(download("transfer-to", syscalls, 0))))).contains("close=500 sendfile64=0");
    }

    /** SQEs belong to io_uring methods only: direct-io's are the process's own, not the method's. */
    @Test
    void ioUringSubmissionsAreShownOnlyForMethodsThatUseIoUring() {
        Map<String, Long> syscalls = Map.of("pread64", 16384L, "write", 16384L, "io_uring_enter", 4096L);
        String table = ReportWriter.table(new Report(Environments.of(Map.of()), List.of(download("direct-io", syscalls, 2),
                download("io-uring-read-send", syscalls, 8192))));
        assertThat(table.lines().filter(l -> l.startsWith("direct-io ")).findFirst().orElseThrow()).doesNotContain("sqes");
        assertThat(table.lines().filter(l -> l.startsWith("io-uring-read-send ")).findFirst().orElseThrow())
                .contains("io_uring_enter=4096").endsWith("(io_uring sqes=8192)");
    }

    @Test
    void theDownloadTableKeepsItsColumns() {
        List<String> lines = ReportWriter.table(report()).lines().toList();
        assertThat(lines.get(3)).isEqualTo("method          size      MiB/s median [min..max]  xfers   p50 ms   p99 ms  "
                + "client usr/sys  server usr/sys syscalls/GiB  ctx sw/GiB  threads  verified   server syscalls/GiB by name");
        assertThat(lines.get(4).stripTrailing()).endsWith("server     peak");
        assertThat(lines.get(5)).startsWith("transfer-to     1GiB      4096 [4000..4200]            2   250.00   260.00     "
                + "0.050/0.100     0.050/0.100            6        2000       57  yes        futex=5 sendfile64=1");
        assertThat(String.join("\n", lines)).doesNotContain("req/s").doesNotContain("proxy");
    }

    /** 50000.0/100000.0 µs of CPU per request is wider than the column's 15 places: the column widens, its header with it. */
    @Test
    void aCellWiderThanItsColumnWidensItAndTheHeaderStaysOverIt() {
        List<String> lines = ReportWriter.table(new Report(Environments.of(Map.of()), List.of(exchanges()))).lines().toList();
        String header = lines.stream().filter(l -> l.startsWith("method ")).findFirst().orElseThrow();
        String row = lines.stream().filter(l -> l.startsWith("copy 1KiB")).findFirst().orElseThrow();
        assertThat(row.indexOf("50000.0/100000.0") + "50000.0/100000.0".length())
                .isEqualTo(header.indexOf("client usr/sys") + "client usr/sys".length());
        assertThat(lines.subList(lines.indexOf(header), lines.size())).noneMatch(l -> l.endsWith(" "));
    }

    /** A label longer than 15 characters widens the method column for every row instead of pushing its own out of line. */
    @Test
    void aLongMethodNameWidensTheColumnForEveryRow() {
        Map<String, Long> syscalls = Map.of("io_uring_enter", 4096L);
        List<String> lines = ReportWriter.table(new Report(Environments.of(Map.of()), List.of(download("io-uring-splice-linked", syscalls, 8192),
                download("stream", syscalls, 0)))).lines().toList();
        String header = lines.stream().filter(l -> l.startsWith("method ")).findFirst().orElseThrow();
        String longRow = lines.stream().filter(l -> l.startsWith("io-uring-splice-linked ")).findFirst().orElseThrow();
        String shortRow = lines.stream().filter(l -> l.startsWith("stream ")).findFirst().orElseThrow();
        int sizeColumn = header.indexOf("size");
        assertThat(sizeColumn).isEqualTo("io-uring-splice-linked".length() + 1);
        assertThat(longRow.indexOf("1GiB")).isEqualTo(sizeColumn);
        assertThat(shortRow.indexOf("1GiB")).isEqualTo(sizeColumn);
    }

    @Test
    void emptyBodyExchangesGetTheirOwnSectionPerRequestAndNameTheProxy() {
        Report r = new Report(Environments.of(Map.of("settings", Map.of(), "proxy", Map.of("pid", 42, "jdk", "Temurin 25", "kernel", "Linux 6.18"))), List.of(exchanges(),
                MethodResult.skipped(new MethodResult.Row(Direction.RELAY, "io-uring", MethodResult.Scenario.SMALL, 0, null), "no io_uring here")));
        String table = ReportWriter.table(r);
        assertThat(table).contains("· proxy JDK Temurin 25, Linux 6.18 ·").contains("proxy, small: empty-body exchanges")
                .contains("req/s median [min..max]").contains("proxy syscalls/req by name").contains("CPU us/req")
                .contains("10000 [9500..10100]").contains("4.03").contains("read=2.00 write=2.00 futex=0.03")
                .contains("85.0").contains("200.0").contains("50000.0/100000.0")
                .contains("copy 1KiB").contains("io-uring        0         skipped: no io_uring here")
                .doesNotContain("MiB/s median");
    }

    @Test
    void aReportWithBothKindsPrintsBothSections() {
        String table = ReportWriter.table(new Report(Environments.of(Map.of()), List.of(exchanges(), measured())));
        assertThat(table).contains("MiB/s median [min..max]").contains("req/s median [min..max]");
        assertThat(table.indexOf("MiB/s median")).as("bytes first").isLessThan(table.indexOf("req/s median"));
    }

    /** 3 ioctls in 4000 requests printed "ioctl=0.00", the same as a defining syscall never called. */
    @Test
    void aRareSyscallIsNotShownAsZero() {
        Map<String, Long> syscalls = new LinkedHashMap<>();
        syscalls.put("read", 8000L);
        syscalls.put("ioctl", 3L);
        MethodResult rare = new MethodResult(new MethodResult.Row(Direction.RELAY, "copy", MethodResult.Scenario.SMALL, 0, null),
                new MethodResult.Throughput(0, 4000, 0.4, 0, 0, 0, List.of(0.0, 0.0), 10000.0, 9500.0, 10100.0),
                new MethodResult.Latency(0.085, 0.2, 0.5), cpu(), cpu(), new MethodResult.Syscalls(syscalls, null, 2.0, 0L, null),
                new MethodResult.Residency(1000, 1000), null, ALONE, null, MethodResult.Status.MEASURED);
        assertThat(ReportWriter.table(new Report(Environments.of(Map.of()), List.of(rare)))).contains("read=2.00 ioctl=<0.01 write=0.00");  // write: the relay's defining syscall, never called
        assertThat(MethodSyscalls.figure(3, 1 << 20, "%.0f")).isEqualTo("<1");
        assertThat(MethodSyscalls.figure(0, 1, "%.0f")).isEqualTo("0");
    }

    @Test
    void proxyScenariosGetOneSectionEach() {
        MethodResult small = exchanges();
        MethodResult connect = new MethodResult(new MethodResult.Row(Direction.RELAY, "splice-pooled", MethodResult.Scenario.CONNECT, 0, null),
                new MethodResult.Throughput(0, 500, 1.0, 0, 0, 0, List.of(0.0, 0.0), 500.0, 450.0, 550.0), new MethodResult.Latency(1.9, 4.0, 9.0),
                cpu(), cpu(), new MethodResult.Syscalls(Map.of("splice", 2000L), null, 20.0, 0L, null), null, null, ALONE, null, MethodResult.Status.MEASURED);
        String table = ReportWriter.table(new Report(Environments.of(Map.of()), List.of(small, connect)));
        assertThat(table).contains("proxy, small:").contains("proxy, connect: a new connection per empty-body exchange");
        assertThat(table.indexOf("proxy, small:")).isLessThan(table.indexOf("copy 1KiB")).isLessThan(table.indexOf("proxy, connect:"));
        assertThat(table.indexOf("proxy, connect:")).isLessThan(table.indexOf("splice-pooled"));
        assertThat(table).contains("500 [450..550]").contains("1900.0").contains("splice=4.00");
    }

    @Test
    void uploadsShowWhereTheServersTimeWent() {
        MethodResult upload = new MethodResult(MethodResult.Row.served(Direction.UPLOAD, "splice", 1L << 20),
                new MethodResult.Throughput(1L << 20, 1, 0.05, 20, 20, 20, List.of(20.0), 20.0, 20.0, 20.0), new MethodResult.Latency(50.0, 50.0, 50.0),
                cpu(), cpu(), MethodResult.Syscalls.unavailable("no perf"), null, new MethodResult.UploadPhases(40.5, 9.25, null), ALONE, null, MethodResult.Status.MEASURED);
        String table = ReportWriter.table(new Report(Environments.of(Map.of()), List.of(upload)));
        assertThat(table).contains("upload phases").containsPattern("splice +1MiB +40\\.50 +9\\.25 +-");
        assertThat(ReportWriter.table(report())).doesNotContain("upload phases");
    }

    /** A receiver that checksums inline reports 0 verify nanos: its column said 0.00 ms, as if the CRC32C were free. */
    @Test
    void anInlineChecksumIsSaidNotShownAsZeroMilliseconds() {
        MethodResult upload = new MethodResult(MethodResult.Row.served(Direction.UPLOAD, "stream", 1L << 20),
                new MethodResult.Throughput(1L << 20, 1, 0.05, 20, 20, 20, List.of(20.0), 20.0, 20.0, 20.0), new MethodResult.Latency(50.0, 50.0, 50.0),
                cpu(), cpu(), MethodResult.Syscalls.unavailable("no perf"), null, new MethodResult.UploadPhases(40.5, 0.0, null), ALONE, null, MethodResult.Status.MEASURED);
        assertThat(ReportWriter.table(new Report(Environments.of(Map.of()), List.of(upload)))).containsPattern("stream +1MiB +40\\.50 +inline +-");
    }

    @Test
    void jsonHasTheDocumentedFieldsAndRoundTrips() throws Exception {
        String json = ReportWriter.render(report(), "json");
        JsonNode root = JSON.readTree(json);
        JsonNode first = root.get("results").get(0);
        for (String field : List.of("direction", "method", "bytes", "transfers", "seconds", "mibPerSec", "transfersPerSec", "verified",
                "syscalls", "syscallsPerTransfer", "measuredProcess", "relayBuffer", "uploadPhasesMillis", "skipped", "serverThreadsPeak")) {
            assertThat(first.has(field)).as(field).isTrue();
        }
        assertThat(first.has("label")).as("label is for tables only").isFalse();
        assertThat(first.get("syscalls").get("sendfile64").asLong()).isEqualTo(2);
        assertThat(first.get("serverThreadsPeak").asInt()).isEqualTo(57);
        assertThat(root.get("results").get(1).get("skipped").asText()).contains("kernel says no");
        assertThat(root.get("results").get(1).get("syscalls").isNull()).isTrue();
        Report back = JSON.readValue(json, Report.class);
        assertThat(back.results()).hasSize(3);
        assertThat(back.results().get(0).throughput().mibPerSec()).isEqualTo(4096);
        assertThat(back.results().get(0).throughput().transfersPerSec()).isEqualTo(4.0);
    }

    @Test
    void eachStatusIsWrittenAsTheFlatFieldsAndReadsBackAsItself() throws Exception {
        String json = ReportWriter.render(report(), "json");
        assertThat(json).contains("\"verified\" : true,\n    \"skipped\" : null,\n    \"error\" : null")
                .contains("\"verified\" : false,\n    \"skipped\" : \"Netty io_uring unavailable: kernel says no\",\n    \"error\" : null")
                .contains("\"verified\" : false,\n    \"skipped\" : null,\n    \"error\" : \"verification failed: CRC32C mismatch\"");
        assertThat(JSON.readTree(json).get("results").get(0).has("flatStatus")).as("the status is its three fields only").isFalse();
        assertThat(JSON.readTree(json).get("results").get(0).has("status")).isFalse();
        assertThat(JSON.readTree(json).get("results").get(0).has("measured")).isFalse();
        List<MethodResult.Status> back = JSON.readValue(json, Report.class).results().stream().map(MethodResult::status).toList();
        assertThat(back).containsExactly(MethodResult.Status.MEASURED,
                new MethodResult.Status.Skipped("Netty io_uring unavailable: kernel says no"),
                new MethodResult.Status.Failed("verification failed: CRC32C mismatch"));
    }

    @Test
    void aRowNeitherSkippedNorFailedButNotVerifiedReadsBackAsFailed() throws Exception {
        String json = ReportWriter.render(new Report(Environments.of(Map.of()), List.of(measured())), "json").replace("\"verified\" : true", "\"verified\" : false");
        assertThat(JSON.readValue(json, Report.class).results().get(0).status()).isEqualTo(new MethodResult.Status.Failed("not verified"));
    }

    @Test
    void anOlderReportWithoutTheNewFieldsStillReads() throws Exception {
        String old = """
                {"environment": {}, "results": [{"direction": "download", "method": "stream", "size": 1024, "bytes": 1024,
                 "transfers": 1, "seconds": 0.1, "mibPerSec": 1.0, "mibPerSecMin": 1.0, "mibPerSecMax": 1.0,
                 "repeatMibPerSec": [1.0], "latencyMillis": {"p50": 1.0, "p99": 1.0, "max": 1.0}, "clientCpu": null,
                 "serverCpu": null, "syscalls": null, "syscallsPerGiB": null, "ioUringSubmissions": null,
                 "syscallsUnavailable": "no perf", "residencyPermille": null, "verified": true, "skipped": null, "error": null}]}
                """;
        Report back = JSON.readValue(old, Report.class);
        assertThat(back.results().get(0).throughput().transfersPerSec()).isNull();
        assertThat(ReportWriter.table(back)).contains("stream").contains("n/a: no perf");
    }

    @Test
    void csvHasOneLinePerResultAndQuotesReasons() throws Exception {
        String csv = ReportWriter.render(report(), "csv");
        List<String> lines = csv.lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("direction,method,size").endsWith(",transfersPerSec,syscallsPerTransfer,relayBuffer,measuredProcess,"
                + "serverContextSwitchesPerGiB,serverContextSwitchesPerTransfer,shared,sharedWithConnections,serverThreadsPeak");
        assertThat(lines.get(2)).contains("\"Netty io_uring unavailable: kernel says no\"");
        assertThat(lines.get(1).split(",", -1)).hasSize(lines.get(0).split(",").length);
    }

    @Test
    void contextSwitchesArePerGiBAndPerRequest() throws Exception {
        assertThat(ReportWriter.table(new Report(Environments.of(Map.of()), List.of(exchanges())))).contains("ctx sw/req").contains(" 1.50 ");
        String csv = ReportWriter.render(new Report(Environments.of(Map.of()), List.of(measured())), "csv");
        assertThat(csv.lines().toList().get(1)).endsWith(",2000.00,1.50000,false,0,57");
        JsonNode cpu = JSON.readTree(ReportWriter.render(new Report(Environments.of(Map.of()), List.of(measured())), "json"))
                .get("results").get(0).get("serverCpu");
        assertThat(cpu.get("contextSwitchesPerGiB").asDouble()).isEqualTo(2000.0);
        assertThat(cpu.get("contextSwitchesPerTransfer").asDouble()).isEqualTo(1.5);
    }

    /** The Markdown and HTML reports had no context-switch column although the text table, CSV and JSON have one. */
    @Test
    void markdownAndHtmlShowContextSwitchesAsTheTextTableDoes() throws Exception {
        Report report = new Report(Environments.of(Map.of()), List.of(measured(), exchanges()));
        List<String> markdown = ReportWriter.render(report, "markdown").lines().filter(l -> l.startsWith("|")).toList();
        assertThat(cell(markdown, "server ctx sw/GiB", "transfer-to")).isEqualTo("2000");
        assertThat(cell(markdown, "proxy ctx sw/req", "copy 1KiB")).isEqualTo("1.50");
        String html = ReportWriter.render(report, "html");
        assertThat(html).contains("<th>server ctx sw/GiB</th>").contains("<td>2000</td>")
                .contains("<th>proxy ctx sw/req</th>").contains("<td>1.50</td>");
    }

    /** The figures sit right in Markdown as in the text table; method, size, verified and the syscall names left. */
    @Test
    void markdownRightAlignsTheFigures() throws Exception {
        String markdown = ReportWriter.render(new Report(Environments.of(Map.of()), List.of(measured(), exchanges())), "markdown");
        assertThat(markdown.lines().filter(l -> l.startsWith("|---"))).hasSize(2)
                .allMatch(l -> l.equals("|---|---|" + "---:|".repeat(9) + "---|---|"));
    }

    /** The cell under {@code column} in the Markdown row that starts with {@code label}, from the header above it. */
    private static String cell(List<String> lines, String column, String label) {
        List<String> header = null;
        for (String line : lines) {
            List<String> cells = List.of(line.substring(1).split(" \\|", -1)).stream().map(String::trim).toList();
            if (cells.contains(column)) {
                header = cells;
            } else if (header != null && cells.get(0).equals(label)) {
                return cells.get(header.indexOf(column));
            }
        }
        throw new AssertionError("no " + column + " for " + label + " in " + lines);
    }

    @Test
    void aSharedWindowIsLabelledInTableJsonAndCsv() throws Exception {
        MethodResult alone = measured();
        MethodResult shared = new MethodResult(MethodResult.Row.served(Direction.DOWNLOAD, "stream", 1L << 30),
                new MethodResult.Throughput(2L << 30, 2, 0.5, 4096, 4000, 4200, List.of(4000.0, 4200.0), 4.0, 3.9, 4.1),
                new MethodResult.Latency(250.0, 260.0, 260.0), cpu(), cpu(), MethodResult.Syscalls.unavailable("no perf"), null, null,
                new MethodResult.Sharing(true, 3), null, MethodResult.Status.MEASURED);
        Report report = new Report(Environments.of(Map.of()), List.of(alone, shared));
        String table = ReportWriter.table(report);
        assertThat(table.lines().filter(l -> l.startsWith("stream")).findFirst().orElseThrow()).contains("yes shared");
        assertThat(table.lines().filter(l -> l.startsWith("transfer-to")).findFirst().orElseThrow()).doesNotContain("shared");
        assertThat(table).contains("shared: other clients' connections worked in the measured process");
        JsonNode rows = JSON.readTree(ReportWriter.render(report, "json")).get("results");
        assertThat(rows.get(0).get("shared").asBoolean()).isFalse();
        assertThat(rows.get(1).get("shared").asBoolean()).isTrue();
        assertThat(rows.get(1).get("sharedWithConnections").asInt()).isEqualTo(3);
        assertThat(ReportWriter.render(report, "csv").lines().toList().get(2)).endsWith(",true,3,");
        assertThat(ReportWriter.table(report())).doesNotContain("shared:");
    }

    @Test
    void provenanceAndTuningAreInTheJsonAndInOneHumanHeaderLineEach() throws Exception {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("provenance", new Provenance(Provenance.SCHEMA_VERSION, "0.1.0", "abc123", "2026-11-23T11:04:22Z",
                List.of("download", "--size", "1GiB"), List.of("-Xmx1g"), "4.2.18.Final"));
        env.put("settings", Map.of("sizes", List.of(1L << 30)));
        env.put("client", Map.of("jdk", "Temurin 25", "kernel", "Linux 6.18", "tuning",
                new io.xferbench.core.metrics.HostTuning("performance", "madvise", "max", "cubic", "4096 131072 6291456",
                        "4096 16384 4194304", "212992", "212992", null)));
        Report report = new Report(Environments.of(env), List.of(measured()));
        Report back = JSON.readValue(ReportWriter.render(report, "json"), Report.class);
        assertThat(back.provenance()).isEqualTo(report.provenance());
        List<String> header = ReportWriter.table(back).lines().toList();
        assertThat(header.get(0)).isEqualTo("xferbench 0.1.0 (abc123, schema 2, Netty 4.2.18.Final) at 2026-11-23T11:04:22Z: download --size 1GiB");
        assertThat(header.get(1)).isEqualTo("download sizes 1GiB");
        assertThat(header).contains("tuning client governor performance, THP madvise, cgroup memory max, TCP cubic rmem 4096 131072 6291456 "
                + "wmem 4096 16384 4194304 rmem_max 212992 wmem_max 212992");
    }

    /** The proxy's settings were left out, and a server's were repeated whole, pushing them out of a chart's header. */
    @Test
    void tuningSaysTheProxysAndServersSettingsWhereTheyDifferFromTheClients() {
        io.xferbench.core.metrics.HostTuning client = new io.xferbench.core.metrics.HostTuning("performance", "madvise", "max",
                "cubic", "4096 131072 6291456", "4096 16384 4194304", "212992", "212992", null);
        io.xferbench.core.metrics.HostTuning server = new io.xferbench.core.metrics.HostTuning("performance", "madvise", "268435456",
                "cubic", "4096 131072 6291456", "4096 16384 4194304", "212992", "212992", "mq-deadline");
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("client", Map.of("jdk", "Temurin 25", "kernel", "Linux 6.18", "tuning", client));
        env.put("proxy", Map.of("jdk", "Temurin 25", "kernel", "Linux 6.18", "tuning", client));
        env.put("server", Map.of("jdk", "Temurin 25", "kernel", "Linux 6.18", "tuning", server));
        assertThat(ReportWriter.table(new Report(Environments.of(env), List.of(exchanges()))).lines())
                .contains("tuning client governor performance, THP madvise, cgroup memory max, TCP cubic rmem 4096 131072 6291456 "
                        + "wmem 4096 16384 4194304 rmem_max 212992 wmem_max 212992 · proxy the same"
                        + " · server the same but cgroup memory 268435456, I/O scheduler mq-deadline");
    }
}
