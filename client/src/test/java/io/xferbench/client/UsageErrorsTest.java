package io.xferbench.client;

import io.xferbench.client.report.Environments;
import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.render.ReportFormat;
import io.xferbench.client.render.ReportWriter;
import io.xferbench.client.report.Provenance;
import io.xferbench.client.report.Report;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.testing.UnwritableDirectory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Bad command lines: one line on stderr, exit 2, before any work; an unreachable server: one line, exit 1. */
public class UsageErrorsTest {

    public record Run(int exit, String out, String err) {
    }

    public static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Cli.commandLine(new ClientMain());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static void assertOneLine(Run r) {
        assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    /** A free port with nothing listening: a command that tried to connect would fail with exit 1, not 2. */
    private static String closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return Integer.toString(s.getLocalPort());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "download --buffer 0", "download --buffer 65MiB", "download --cache foo", "download --format xml",
        "download --size -5", "download --size 1XB", "download --concurrency 0", "download --repeat 0",
        "download --warmup -1", "download --verify md5", "download --port 70000", "upload --size abc",
        "proxy --relay-buffer 100MiB", "proxy --exchanges 0", "proxy --scenario small,foo", "load --concurrency 0",
        "load --duration forever", "load --format xml", "load --protocol ftp", "load --rate -1", "download --nonsense",
        "frobnicate", "download --client-id 3/2", "download --client-id 1", "upload --start-at tomorrow",
        "download --concurrency 1025", "upload --concurrency 100000", "proxy --concurrency 2000",
        "download --start-at 99999999999999999999", "upload --start-at 2126-01-01T00:00:00Z",
        "upload --concurrency 1000 --buffer 64MiB",
        // A TLS method needs the certificate to trust; a cipher outside TLS 1.3's three; a --tls-ca that is no file.
        "download --method tls-jdk", "download --method transfer-to,tls-jdk --size 1", "download --tls-cipher TLS_RSA_WITH_NULL_SHA",
        "download --method tls-jdk --tls-ca /nonexistent-ca.pem",
        // Past a long of nanoseconds the waits overflowed: 'internal error: ArithmeticException: long overflow', exit 1.
        "info --answer-timeout 9999999999999s", "load --answer-timeout 9999999999999s", "load --duration 9999999999999s",
        "info --answer-timeout Infinity", "load --answer-timeout 31622400s",
        // Double.parseDouble's literal forms: '1d' ran for 1 second.
        "load --duration 1d", "info --answer-timeout 0x1p3"})
    void usageErrorsAreOneLineAndExitTwoBeforeAnyWork(String args) throws Exception {
        Run r = run((args + " --port " + closedPort()).split(" "));
        if (args.contains("--port 70000")) {
            r = run(args.split(" "));
        }
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.USAGE);
        assertOneLine(r);
    }

    /**
     * A load bench with neither a request count nor a duration is refused, naming --duration, before its data directory
     * or a server exists (pom.xml stands in for the server jar): the old code started a server and failed at its first
     * row ({@code give a request count or a positive duration}, or the stand-in server's failure to start).
     */
    @ParameterizedTest
    @ValueSource(strings = {"--duration 0s", "--requests 0 --duration 0ms"})
    void aLoadBenchWithoutDurationOrCountIsAUsageErrorBeforeAnyWork(String args, @TempDir Path parent) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of("load-bench", "--server-jar", "pom.xml", "--data-parent",
                parent.toString()));
        argv.addAll(List.of(args.split(" ")));
        Run r = run(argv.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.USAGE);
        assertOneLine(r);
        assertThat(r.err()).contains("--duration");
        try (var made = Files.list(parent)) {
            assertThat(made).as("nothing made").isEmpty();
        }
    }

    /** The veth launcher's own mistakes are caught before it makes a namespace (pom.xml stands in for a jar). */
    @ParameterizedTest
    @ValueSource(strings = {
        "veth", "veth download", "veth frobnicate --server-jar pom.xml", "veth download --mtu 10 --server-jar pom.xml",
        "veth download --mtu 70000 --server-jar pom.xml", "veth download --netem delay --qdisc tbf --server-jar pom.xml",
        "veth download --server-jar no-such.jar", "veth download --server-jar pom.xml --host 10.0.0.1",
        "veth upload --server-jar pom.xml --port=7070", "veth load-bench --server-jar pom.xml --duration 0s"})
    void vethUsageErrorsAreOneLineAndExitTwo(String args) throws Exception {
        Run r = run(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.USAGE);
        assertOneLine(r);
    }

    @Test
    void noCommandIsAUsageError() {
        Run r = run();
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.USAGE);
        assertOneLine(r);
        assertThat(r.err()).contains("download");
    }

    /** JSON that is not a client report (an empty object, say) is one line and exit 1, not an internal error. */
    @Test
    void aReportThatIsNotOneIsOneLine(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.json"), "{}");
        for (String[] args : new String[][] {{"render", empty.toString()}, {"merge", empty.toString(), empty.toString()}}) {
            Run r = run(args);
            assertThat(r.exit()).as(r.err()).isEqualTo(Cli.FAILED);
            assertOneLine(r);
            assertThat(r.err()).contains("is not an xferbench client JSON report").doesNotContain("internal error");
        }
    }

    /** A load report (its own schema) read by render or merge: one line saying what it is and what they read. */
    @Test
    void aLoadReportIsOneLineNamingWhatRenderReads(@TempDir Path dir) throws Exception {
        Path load = Files.writeString(dir.resolve("load.json"),
                "{\"schema\":\"xferbench-load/1\",\"environment\":{},\"settings\":{},\"rows\":[]}");
        for (String[] args : new String[][] {{"render", load.toString()}, {"merge", load.toString(), load.toString()}}) {
            Run r = run(args);
            assertThat(r.exit()).as(r.err()).isEqualTo(Cli.FAILED);
            assertOneLine(r);
            assertThat(r.err()).contains("is a load report (xferbench-load/1)").contains("download, upload and proxy reports");
        }
    }

    @Test
    void anUnreachableServerIsOneLineAndExitOne() throws Exception {
        Path bodies = Path.of(System.getProperty("java.io.tmpdir"), "xferbench-client-data");
        boolean bodiesExisted = Files.exists(bodies);
        for (String cmd : new String[] {"info", "download", "upload", "proxy"}) {
            Run r = run(cmd, "--port", closedPort());
            assertThat(r.exit()).as(cmd + ": " + r.err()).isEqualTo(Cli.FAILED);
            assertOneLine(r);
            assertThat(r.err()).contains("cannot connect");
        }
        // An upload that never reached its server leaves no bodies' directory behind.
        assertThat(Files.exists(bodies)).as(bodies.toString()).isEqualTo(bodiesExisted);
        Run unknown = run("info", "--host", "no-such-host.invalid");
        assertThat(unknown.exit()).isEqualTo(Cli.FAILED);
        assertOneLine(unknown);
        assertThat(unknown.err()).contains("unknown host");
    }

    /**
     * A file the run could not write is a usage error before the run, not a lost run: DIR is a temporary directory, RUN
     * a report in it, EMPTY an empty argument. The message names the option.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "download --format json --out DIR/nodir/r.json", "download --out DIR", "download --out DIR/o/", "download --out EMPTY",
        "upload --out DIR/nodir/r.json", "proxy --out DIR", "download --chart DIR/nodir/c", "download --chart EMPTY",
        "download --chart DIR/c/", "download --chart DIR/.png", "download --format ,", "load --out DIR/nodir/r.json",
        "load --out DIR", "load-bench --server-jar no-such.jar --json DIR/nodir/r.json", "load-bench --server-jar no-such.jar --out DIR",
        "load-bench --server-jar no-such.jar --chart DIR/nodir/s.png", "render RUN --chart DIR/nodir/c", "render RUN --chart EMPTY",
        "render RUN --out DIR/o/", "render RUN --format csv --out RUN", "render RUN --format csv,json --out DIR/run.x",
        "compare RUN RUN --out RUN", "compare RUN RUN --out DIR/nodir/c.txt", "merge RUN RUN --format json --out RUN"})
    void anOutputThatCannotBeWrittenIsAUsageErrorBeforeAnyWork(String args, @TempDir Path dir) throws Exception {
        Path report = Files.writeString(dir.resolve("run.json"), ReportWriter.render(new Report(Environments.of(java.util.Map.of()), java.util.List.of()),
                ReportFormat.JSON));
        String[] argv = args.split(" ");
        for (int i = 0; i < argv.length; i++) {
            argv[i] = argv[i].equals("EMPTY") ? "" : argv[i].replace("DIR", dir.toString()).replace("RUN", report.toString());
        }
        String option = argv[argv.length - 2];
        if (List.of("download", "upload", "proxy", "load").contains(argv[0])) {
            argv = concat(argv, "--port", closedPort());
        }
        Run r = run(argv[0].equals("load") ? concat(argv, "--duration", "1s") : argv);
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.USAGE);
        assertOneLine(r);
        assertThat(r.err()).contains(option);
        assertThat(Files.readString(report)).as("the input is untouched").startsWith("{");
        try (var files = Files.list(dir)) {
            assertThat(files).as("nothing written").containsExactly(report);
        }
    }

    /**
     * A directory the run could not write in (immutable here, where root writes anywhere else; read-only for others) is
     * a usage error before any work: the old code connected (exit 1, 'cannot connect'), or ran the whole bench and lost
     * it at the end.
     */
    @ParameterizedTest
    @ValueSource(strings = {"download --out RO/r.json", "download --chart RO/c", "load --out RO/r.json",
        "load-bench --server-jar pom.xml --json RO/r.json", "load-bench --server-jar pom.xml --chart RO/s.png",
        "compare RUN RUN --out RO/c.txt"})
    void anOutputInADirectoryThatCannotBeWrittenIsAUsageErrorBeforeAnyWork(String args, @TempDir Path dir) throws Exception {
        Path report = Files.writeString(dir.resolve("run.json"), ReportWriter.render(new Report(Environments.of(java.util.Map.of()), java.util.List.of()),
                ReportFormat.JSON));
        Path ro = Files.createDirectory(dir.resolve("ro"));
        UnwritableDirectory.make(ro);
        try {
            String[] argv = args.split(" ");
            for (int i = 0; i < argv.length; i++) {
                argv[i] = argv[i].replace("RO", ro.toString()).replace("RUN", report.toString());
            }
            String option = argv[argv.length - 2];
            if (List.of("download", "load").contains(argv[0])) {
                argv = concat(argv, "--port", closedPort());
            }
            Run r = run(argv[0].equals("load") ? concat(argv, "--duration", "1s") : argv);
            assertThat(r.exit()).as(r.err()).isEqualTo(Cli.USAGE);
            assertOneLine(r);
            assertThat(r.err()).contains(option).contains("cannot write in " + ro);
        } finally {
            UnwritableDirectory.undo(ro);
        }
    }

    private static String[] concat(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }

    /** veth parses the client's arguments before it makes a namespace: a bad --out is caught there too. */
    @Test
    void vethChecksTheClientsOutputBeforeMakingANamespace(@TempDir Path dir) {
        Run r = run("veth", "download", "--server-jar", "pom.xml", "--out", dir.resolve("nodir/r.json").toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.USAGE);
        assertOneLine(r);
        assertThat(r.err()).contains("--out");
    }

    /** Hand-edited rows: one line naming the file and the row, exit 1, as for JSON that is no report at all. */
    @ParameterizedTest
    @ValueSource(strings = {"{}", "null", "{\"direction\":\"download\",\"method\":\"x\"}", "{\"method\":\"x\",\"size\":1}",
        "{\"direction\":\"download\",\"size\":1}"})
    void aReportWithABadRowIsOneLineNamingTheFile(String row, @TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"environment\":{},\"results\":[" + row + "]}");
        Run r = run("render", bad.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.FAILED);
        assertOneLine(r);
        assertThat(r.err()).contains(bad + " is not an xferbench client JSON report: results[0] ").doesNotContain("internal error");
    }

    /** Hand-edited typed parts of the environment: one line naming the file and the part, exit 1. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"provenance\":\"x\"}", "{\"provenance\":{\"schemaVersion\":\"abc\"}}", "{\"network\":5}",
        "{\"clients\":5}", "{\"clients\":{}}", "{\"server\":{\"tuning\":5}}"})
    void aReportWithABadEnvironmentIsOneLineNamingTheFile(String environment, @TempDir Path dir) throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"environment\":" + environment + ",\"results\":[]}");
        Run r = run("render", bad.toString(), "--format", "json", "--out", dir.resolve("out.json").toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(Cli.FAILED);
        assertOneLine(r);
        assertThat(r.err()).contains(bad + " is not an xferbench client JSON report: environment.").doesNotContain("internal error");
    }

    /** A report of a newer layout is rendered, with a warning that some fields may be misread. */
    @Test
    void aNewerSchemaIsWarnedOf(@TempDir Path dir) throws Exception {
        Path newer = Files.writeString(dir.resolve("newer.json"), "{\"environment\":{\"provenance\":{\"schemaVersion\":99}},\"results\":[]}");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream stderr = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertThat(run("render", newer.toString(), "--format", "json", "--out", dir.resolve("out.json").toString()).exit()).isZero();
        } finally {
            System.setErr(stderr);
        }
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("warning: " + newer + " has schema 99, newer than "
                + "this client's " + Provenance.SCHEMA_VERSION);
    }
}
