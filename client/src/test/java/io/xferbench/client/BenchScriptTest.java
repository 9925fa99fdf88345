package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/bench}, {@code bench-upload} and {@code bench-proxy} as shipped, run in a copy of the scripts whose JDK
 * is a stub: it records every client command line, "serves" on a fixed port and makes the client's run fail a row
 * (exit 1). Checks that the user's {@code --format/--out/--chart} reach a rendering of the run instead of being
 * overridden by the script's JSON, and that a failed row still gets its table, HTML report and charts.
 */
class BenchScriptTest {
    private static final Path SCRIPTS = Path.of("..", "scripts");

    /** A JDK whose java records its arguments; the client's run writes its --out JSON and fails a row. */
    private static final String STUB_JAVA = """
            #!/usr/bin/env bash
            case " $* " in
              *" -XshowSettings:properties "*) echo "    java.specification.version = 25" >&2; exit 0 ;;
              *xferbench-server.jar*) echo "xferbench-server listening on 127.0.0.1:40000"
                [ -z "${STUB_PIDS:-}" ] || echo $$ >> "$STUB_PIDS"; exec sleep 60 ;;
              *benchmarks.jar*" -bogus "*) echo "jmh: b is not a recognized option (see -h)" >&2; exit 2 ;;
              *benchmarks.jar" -h ") echo "Usage: java -jar ... [regexp*] [options]"; exit 0 ;;
            esac
            case " $* " in
              *" download "*) [ -z "${STUB_PIDS:-}" ] || { echo $$ >> "$STUB_PIDS"; exec sleep 60; } ;;
            esac
            case " $* " in
              *" render "*"--format html"*) [ -z "${STUB_RENDER_PIDS:-}" ] || { echo $$ >> "$STUB_RENDER_PIDS"; exec sleep 60; } ;;
            esac
            printf '%s\\n' "$*" >> "$STUB_LOG"
            case " $* " in
              *no-such-report*) [ -z "${STUB_BAD_REPORT_OPTIONS:-}" ] || { echo "render: bad --out" >&2; exit 2; }
                echo "render: no such file" >&2; exit 1 ;;
              *" render "*) exit 0 ;;
            esac
            out=""; prev=""
            for a in "$@"; do [ "$prev" = --out ] && out=$a; prev=$a; done
            echo '{}' > "$out"
            echo "xferbench: FAILED rows: [mmap]" >&2
            exit 1
            """;

    private static Path fakeTree(Path dir) throws IOException {
        Path root = dir.resolve("root");
        Files.createDirectories(root.resolve("scripts/lib"));
        for (String script : List.of("bench", "bench-upload", "bench-proxy", "jmh")) {
            Files.copy(SCRIPTS.resolve(script), root.resolve("scripts").resolve(script));
        }
        try (Stream<Path> lib = Files.list(SCRIPTS.resolve("lib"))) {
            for (Path f : lib.toList()) {
                Files.copy(f, root.resolve("scripts/lib").resolve(f.getFileName()));
            }
        }
        // Jars newer than every source of this tree (it has none): nothing is built.
        for (String jar : List.of("server/target/xferbench-server.jar", "client/target/xferbench-client.jar",
                "jmh/target/benchmarks.jar")) {
            Files.createDirectories(root.resolve(jar).getParent());
            Files.writeString(root.resolve(jar), "");
        }
        Path bin = Files.createDirectories(dir.resolve("jdk/bin"));
        for (String tool : List.of("java", "javac")) {
            Files.writeString(bin.resolve(tool), STUB_JAVA);
            Files.setPosixFilePermissions(bin.resolve(tool), PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return root;
    }

    private record Run(int exit, List<String> commands, String out) {
    }

    private static Run run(Path dir, String script, String... args) throws Exception {
        return run(dir, false, script, args);
    }

    private static Run run(Path dir, boolean badReportOptions, String script, String... args) throws Exception {
        return runIn(fakeTree(dir), dir, null, badReportOptions, script, args);
    }

    /**
     * {@code script} of the tree at {@code root}, with {@code stubs} (when not null) first on the PATH; with
     * {@code badReportOptions} the stub's render refuses the user's report options.
     */
    private static Run runIn(Path root, Path dir, Path stubs, boolean badReportOptions, String script, String... args)
            throws Exception {
        Path log = dir.resolve("commands.log");
        Files.writeString(log, "");
        List<String> command = new java.util.ArrayList<>(List.of("bash", root.resolve("scripts").resolve(script).toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
        pb.environment().put("STUB_LOG", log.toString());
        if (badReportOptions) {
            pb.environment().put("STUB_BAD_REPORT_OPTIONS", "1");
        }
        pb.environment().put("XFERBENCH_DATA_DIR", dir.resolve("data").toString());
        pb.environment().put("XFERBENCH_CLIENT_DIR", dir.resolve("client-data").toString());
        if (stubs != null) {
            pb.environment().put("PATH", stubs + ":" + System.getenv("PATH"));
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(out).isTrue();
        return new Run(p.exitValue(), Files.readAllLines(log), out);
    }

    @Test
    void theUsersReportOptionsRenderTheRunAndAFailedRowStillGetsItsReport(@TempDir Path dir) throws Exception {
        Run run = run(dir, "bench", "--size", "1MiB", "--format", "markdown", "--out=" + dir.resolve("mine.md"), "--repeat", "2");
        assertThat(run.exit()).as(run.out()).isEqualTo(1);
        assertThat(run.commands()).hasSize(4);
        assertThat(run.commands().get(0)).as("checked before the run").contains(" render ").contains("no-such-report.json")
                .endsWith("--format markdown --out=" + dir.resolve("mine.md"));
        run.commands().remove(0);
        String download = run.commands().get(0);
        assertThat(download).contains(" download ").contains("--size 1MiB").contains("--repeat 2")
                .doesNotContain("markdown").doesNotContain("mine.md").containsPattern("--format json --out \\S+/results/bench-\\S+\\.json$");
        assertThat(run.commands().get(1)).contains(" render ").endsWith("--format markdown --out=" + dir.resolve("mine.md"));
        assertThat(run.commands().get(2)).contains(" render ").contains("--format html").contains("--chart ");
        assertThat(run.out()).contains("results: ");
    }

    @Test
    void withoutReportOptionsTheTableIsPrinted(@TempDir Path dir) throws Exception {
        for (String script : List.of("bench-upload", "bench-proxy")) {
            Path sub = Files.createDirectories(dir.resolve(script));
            Run run = run(sub, script, "--size", "1MiB");
            assertThat(run.exit()).as(run.out()).isEqualTo(1);
            assertThat(run.commands()).as(script).hasSize(3);
            assertThat(run.commands().get(1)).as(script).matches(".* render \\S+/results/bench-\\S+\\.json");
        }
    }

    /** Two runs started in the same second (a `date` that always says the same second) keep results of their own. */
    @Test
    void runsStartedInTheSameSecondWriteFilesOfTheirOwn(@TempDir Path dir) throws Exception {
        Path stubs = Files.createDirectories(dir.resolve("stubs"));
        Files.writeString(stubs.resolve("date"), "#!/bin/sh\necho 20261128T000000Z\n");
        Files.setPosixFilePermissions(stubs.resolve("date"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Path root = fakeTree(dir);
        String first = runIn(root, dir, stubs, false, "bench", "--size", "1MiB").commands().get(0);
        String second = runIn(root, dir, stubs, false, "bench", "--size", "1MiB").commands().get(0);
        String json = "--out (\\S+/results/bench-20261128T000000Z\\S*\\.json)$";
        assertThat(first).containsPattern(json);
        assertThat(second).containsPattern(json);
        assertThat(first.replaceAll(".*" + json, "$1")).isNotEqualTo(second.replaceAll(".*" + json, "$1"));
    }

    /**
     * SIGKILL of the script itself (no trap runs) takes its server and its client along: they are started with
     * setpriv's parent-death signal. The old script left both running (found with scripts/bench and scripts/bench-load:
     * the client, or the whole load bench, ran on as an orphan after its launcher was killed), and its server's log in
     * the temp directory.
     */
    @Test
    void aScriptKilledOutrightTakesItsServerAndClientWithIt(@TempDir Path dir) throws Exception {
        MethodAssumptions.assumeAvailable("setpriv", Files.isExecutable(Path.of("/usr/bin/setpriv")), "no /usr/bin/setpriv");
        Path tmp = dir.resolve("tmp");
        try (StartedBench bench = startBench(dir, "STUB_PIDS", 2)) {
            List<ProcessHandle> started = bench.pids();
            assertThat(started).as("the server and the client run").hasSize(2);
            bench.script().destroyForcibly().waitFor();
            for (ProcessHandle p : started) {
                try {
                    p.onExit().get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException stillThere) {
                    // asserted below
                }
            }
            assertThat(started).as("server and client after the script's SIGKILL").noneMatch(ProcessHandle::isAlive);
            try (Stream<Path> left = Files.list(tmp)) {
                assertThat(left).as("left in TMPDIR").isEmpty();
            }
        }
    }

    /**
     * SIGKILL of the script while it renders the run's HTML report takes the rendering along. The old script ran it
     * bare: it ran on to its end as an orphan (seen with scripts/jmh's report, SIGKILLed 10 s in).
     */
    @Test
    void aScriptKilledWhileRenderingTakesTheRenderingWithIt(@TempDir Path dir) throws Exception {
        MethodAssumptions.assumeAvailable("setpriv", Files.isExecutable(Path.of("/usr/bin/setpriv")), "no /usr/bin/setpriv");
        try (StartedBench bench = startBench(dir, "STUB_RENDER_PIDS", 1)) {
            java.util.Optional<ProcessHandle> render = bench.pids().stream().findFirst();
            assertThat(render).as("the HTML rendering runs").isPresent();
            Thread.sleep(200);  // the stub has exec'd its sleep
            bench.script().destroyForcibly().waitFor();
            try {
                render.get().onExit().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException stillThere) {
                // asserted below
            }
            assertThat(render.get().isAlive()).as("the rendering 10 s after the script's SIGKILL").isFalse();
        }
    }

    /** {@code scripts/bench} running on the fake tree, and the live processes its stubs said they started. */
    private record StartedBench(Process script, List<ProcessHandle> pids) implements AutoCloseable {
        /** Kills the script and what it started, whatever the test saw. */
        @Override
        public void close() {
            script.destroyForcibly();
            pids.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Starts {@code scripts/bench --size 1MiB} on a fake tree in {@code dir} (TMPDIR {@code dir/tmp}), its stubs writing
     * the PIDs they start to the file named by {@code pidsVariable}, and waits up to 30 s for {@code count} of them alive
     * (fewer if they do not come: the caller asserts how many).
     */
    private static StartedBench startBench(Path dir, String pidsVariable, int count) throws Exception {
        Path root = fakeTree(dir);
        Path pids = dir.resolve("pids");
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("scripts/bench").toString(), "--size", "1MiB")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
        pb.environment().put("STUB_LOG", dir.resolve("commands.log").toString());
        pb.environment().put(pidsVariable, pids.toString());
        pb.environment().put("XFERBENCH_DATA_DIR", dir.resolve("data").toString());
        pb.environment().put("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString());
        Process script = pb.start();
        List<ProcessHandle> started = List.of();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (started.size() < count && System.nanoTime() < deadline) {
                Thread.sleep(50);
                started = Files.exists(pids) ? Files.readAllLines(pids).stream().filter(l -> !l.isBlank())
                        .map(l -> ProcessHandle.of(Long.parseLong(l.strip()))).flatMap(java.util.Optional::stream).toList() : List.of();
            }
            return new StartedBench(script, started);
        } catch (Exception | Error e) {
            script.destroyForcibly();
            started.forEach(ProcessHandle::destroyForcibly);
            throw e;
        }
    }

    /** Report options the rendering could not write end the script before the run, with the client's usage error. */
    @Test
    void badReportOptionsStopTheScriptBeforeTheRun(@TempDir Path dir) throws Exception {
        for (String script : List.of("bench", "bench-upload", "bench-proxy")) {
            Path sub = Files.createDirectories(dir.resolve(script));
            Run run = run(sub, true, script, "--size", "1MiB", "--out", sub.resolve("nodir/r.json").toString());
            assertThat(run.exit()).as(run.out()).isEqualTo(2);
            assertThat(run.out()).contains("render: bad --out");
            assertThat(run.commands()).as(script).hasSize(1).allMatch(c -> c.contains("no-such-report.json"));
        }
    }

    /**
     * {@code scripts/jmh --table} with arguments JMH cannot parse ends with the benchmarks jar's one-line usage error
     * and its exit 2: the script used to add "JMH wrote no result" and exit 1, as for a run that failed.
     */
    @Test
    void jmhTableWithABadOptionIsTheJarsUsageErrorAlone(@TempDir Path dir) throws Exception {
        Run run = run(dir, "jmh", "--table", "-bogus");
        assertThat(run.exit()).as(run.out()).isEqualTo(2);
        assertThat(run.out().lines().toList()).containsExactly("jmh: b is not a recognized option (see -h)");
        try (Stream<Path> results = Files.list(dir.resolve("root/results/jmh"))) {
            assertThat(results).as("no empty result file left").isEmpty();
        }
    }

    /**
     * {@code scripts/jmh --help} prints the script's own usage, then JMH's options ({@code -h}), and exits 0: it used to
     * hand {@code --help} to JMH, which refused it ("help is not a recognized option", exit 2).
     */
    @Test
    void jmhHelpIsTheScriptsUsageThenJmhsOptions(@TempDir Path dir) throws Exception {
        Run run = run(dir, "jmh", "--help");
        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(run.out()).contains("scripts/jmh --table [JMH ARGS]").contains("JMH's own options (scripts/jmh -h):")
                .contains("Usage: java -jar ... [regexp*] [options]").doesNotContain("set -euo pipefail");
    }
}
