package io.xferbench.client.load.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.ServerJar;
import io.xferbench.client.load.target.NginxProcess;
import io.xferbench.client.load.target.OwnedTempDirs;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * kill -9 of the bench in the middle of an nginx row or of a JIT settle: its servers die with it, and the next bench
 * removes its directories.
 */
@Timeout(180)
class LoadBenchKillTest {
    private static final Path SERVER_JAR = ServerJar.PATH;

    @Test
    void aKilledBenchLeavesNoServerAndItsDirectoriesAreRemovedByTheNext() throws Exception {
        ServerJar.assumeBuilt("load-bench");
        MethodAssumptions.assumeAvailable("nginx", NginxProcess.binary().isPresent() ? Availability.AVAILABLE
                : Availability.unavailable(NginxProcess.missingReason()));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process bench = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.xferbench.client.ClientMain",
                // One xferbench model: the nginx rows (what is killed) come after every model's rows.
                "load-bench", "--server-jar", SERVER_JAR.toString(), "--io-models", "platform", "--concurrency", "4", "--duration", "2s",
                "--warmup", "0s", "--jit-settle", "0s", "--file-size", "4KiB", "--no-wrk")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            // The xferbench rows take a few seconds; then nginx (master and workers) runs from its own directory.
            List<ProcessHandle> servers = List.of();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (servers.stream().noneMatch(LoadBenchKillTest::isNginxWorker) && System.nanoTime() < deadline) {
                Thread.sleep(100);
                servers = bench.descendants().filter(ProcessHandle::isAlive).toList();
            }
            assertThat(servers).as("the bench is running nginx").anyMatch(LoadBenchKillTest::isNginxWorker);
            List<Path> dirs = ownedBy(bench.pid());
            assertThat(dirs).as("the bench's data directory").isNotEmpty();

            bench.destroyForcibly().waitFor();

            for (ProcessHandle s : servers) {
                s.onExit().get(30, TimeUnit.SECONDS);
            }
            OwnedTempDirs.removeStale("xferbench-nginx-");
            OwnedTempDirs.removeStale("xferbench-load-data-");
            assertThat(dirs).allMatch(d -> !Files.exists(d));
        } finally {
            bench.destroyForcibly();
        }
    }

    @Test
    void aBenchKilledWhileItSettlesAServersJitLeavesNoServerAndItsDirectoriesAreRemovedByTheNext() throws Exception {
        ServerJar.assumeBuilt("load-bench");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process bench = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.xferbench.client.ClientMain",
                "load-bench", "--server-jar", SERVER_JAR.toString(), "--io-models", "platform", "--concurrency", "4", "--duration", "2s",
                "--warmup", "0s", "--jit-settle", "60s", "--file-size", "4KiB", "--no-wrk", "--ops", "download")
                .redirectErrorStream(true).start();
        try {
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread.ofPlatform().daemon().start(() -> new BufferedReader(new InputStreamReader(bench.getInputStream(),
                    StandardCharsets.UTF_8)).lines().forEach(lines::add));
            String line = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!line.contains("settling its JIT") && System.nanoTime() < deadline) {
                String next = lines.poll(100, TimeUnit.MILLISECONDS);
                line = next == null ? line : next;
            }
            assertThat(line).as("the bench is settling the server's JIT").contains("settling its JIT");
            Thread.sleep(500); // inside the settle's load, not before it
            List<ProcessHandle> servers = bench.descendants().filter(ProcessHandle::isAlive).toList();
            assertThat(servers).as("the bench's xferbench server").isNotEmpty();
            List<Path> dirs = ownedBy(bench.pid());
            assertThat(dirs).as("the bench's data directory").isNotEmpty();

            bench.destroyForcibly().waitFor();

            for (ProcessHandle s : servers) {
                s.onExit().get(30, TimeUnit.SECONDS);
            }
            OwnedTempDirs.removeStale("xferbench-nginx-"); // nginx runs from the bench's start, idle until its rows
            OwnedTempDirs.removeStale("xferbench-load-data-");
            assertThat(dirs).allMatch(d -> !Files.exists(d));
        } finally {
            bench.destroyForcibly();
        }
    }

    private static boolean isNginxWorker(ProcessHandle p) {
        return OwnedTempDirs.commandLine(p).contains("nginx: worker");
    }

    /** The bench's temporary directories: those whose name carries its pid ({@code <prefix><pid>.<start>-…}). */
    private static List<Path> ownedBy(long pid) throws Exception {
        try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("xferbench-nginx-" + pid + ".")
                            || d.getFileName().toString().startsWith("xferbench-load-data-" + pid + ".")).toList();
        }
    }
}
