package io.xferbench.client.load.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.ServerJar;
import io.xferbench.client.load.target.NginxProcess;
import io.xferbench.client.load.target.OwnedTempDirs;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose process died under the bench is not measured as if it ran: found by SIGKILLing nginx's master
 * 9 s into scripts/bench-load, whose orphaned workers went on serving, so its rows showed 0.0 server µs/req,
 * 0 threads, 0 syscalls per request, verified, and the bench exited 0.
 */
@Timeout(180)
class DeadServerRowTest {

    @Test
    void rowsOfAServerWhoseProcessDiedFailTheBench(@TempDir Path dir) throws Exception {
        ServerJar.assumeBuilt("load-bench");
        MethodAssumptions.assumeAvailable("nginx", NginxProcess.binary().isPresent() ? Availability.AVAILABLE
                : Availability.unavailable(NginxProcess.missingReason()));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = dir.resolve("out.txt");
        Path json = dir.resolve("rows.json");
        Process bench = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.xferbench.client.ClientMain",
                "load-bench", "--server-jar", ServerJar.PATH.toString(), "--io-models", "platform", "--concurrency", "2",
                "--duration", "1s", "--warmup", "0s", "--jit-settle", "0s", "--file-size", "4KiB", "--no-wrk",
                "--ops", "download", "--drain-wait", "2s", "--json", json.toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        List<ProcessHandle> masters = List.of();
        try {
            // Every server starts before the first row: kill both nginx masters as soon as both run.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (masters.size() < 2 && bench.isAlive() && System.nanoTime() < deadline) {
                masters = bench.children().filter(p -> OwnedTempDirs.commandLine(p).contains("nginx: master")).toList();
                Thread.sleep(50);
            }
            assertThat(masters).as("the bench runs two nginx masters").hasSize(2);
            Thread.sleep(300); // their workers are forked and listening
            masters.forEach(ProcessHandle::destroyForcibly);
            assertThat(bench.waitFor(150, TimeUnit.SECONDS)).as("the bench ends").isTrue();
            String said = Files.readString(out);
            assertThat(bench.exitValue()).as(said).isEqualTo(1);
            assertThat(said).contains("server process exited");
            // Its counters read across the death (a CPU per request of -1216 µs was seen): no server figure is shown.
            List<JsonNode> dead = new ArrayList<>();
            new ObjectMapper().readTree(json.toFile()).findParents("errorsByCause").stream()
                    .filter(row -> row.get("errorsByCause").has("server process exited")).forEach(dead::add);
            assertThat(dead).as(said).isNotEmpty();
            for (JsonNode row : dead) {
                assertThat(row.get("serverCpuMicrosPerRequest").isNull()).as(row.toString()).isTrue();
                assertThat(row.get("serverThreadsPeak").isNull()).as(row.toString()).isTrue();
            }
        } finally {
            bench.destroyForcibly().waitFor();
        }
    }
}
