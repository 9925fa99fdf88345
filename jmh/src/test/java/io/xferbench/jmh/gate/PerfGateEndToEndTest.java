package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real gate, end to end: a baseline measured on the unmodified code, then the unmodified code passes
 * (exit 0), then transfer-to degraded into a 4 KiB copy loop by the test-only switch fails (exit 1) on its
 * syscall counts. And a run that judges ratios (no --counts-only) against that baseline recorded as measured on
 * another host judges none of them, and still its counts.
 */
class PerfGateEndToEndTest {
    @TempDir
    Path tmp;

    private List<String> args(String... extra) {
        List<String> a = new ArrayList<>(List.of("--baseline", tmp.resolve("baseline.json").toString(), "--jmh-log", tmp.resolve("jmh.log").toString(),
                "--benchmarks", "FileToSocketBenchmark", "--methods", "stream,transfer-to", "--sizes", "1048576", "--warmup-iterations", "1", "--iterations", "2"));
        a.addAll(List.of(extra));
        return a;
    }

    @Test
    void passesOnTheUnmodifiedCodeAndFailsWhenTransferToLosesSendfile() throws Exception {
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        System.setProperty("jmh.ignoreLock", "true");

        assertThat(PerfGate.run(args("--update-baseline").toArray(String[]::new))).isEqualTo(GateReport.EXIT_OK);
        assertThat(Baseline.read(tmp.resolve("baseline.json")).ratiosDependOn()).isEqualTo(HostFingerprint.current());

        // Counts only: they are what a degraded method changes deterministically; ratios between two runs minutes apart
        // on a shared 2-core machine are noise the gate's own docs keep out of CI (a run saw transfer-to/stream -37%).
        Path okVerdict = tmp.resolve("ok.json");
        assertThat(PerfGate.run(args("--counts-only", "--verdict-json", okVerdict.toString()).toArray(String[]::new)))
                .as("unmodified code against its own baseline").isEqualTo(GateReport.EXIT_OK);

        Path badVerdict = tmp.resolve("bad.json");
        int exit = PerfGate.run(args("--counts-only", "--verdict-json", badVerdict.toString(),
                "--jvm-arg", "-Dxferbench.method.override=transfer-to=" + DegradedTransferTo.class.getName()).toArray(String[]::new));
        assertThat(exit).as("degraded transfer-to").isEqualTo(GateReport.EXIT_REGRESSION);

        JsonNode verdicts = new ObjectMapper().readTree(badVerdict.toFile()).get("verdicts");
        List<String> regressed = new ArrayList<>();
        for (JsonNode v : verdicts) {
            if (v.get("outcome").asText().equals("REGRESSED")) {
                regressed.add(v.get("key").asText() + " " + v.get("metric").asText());
            }
        }
        assertThat(regressed).anyMatch(r -> r.contains("method=transfer-to") && r.endsWith("syscalls.pread64/op"));
        assertThat(regressed).anyMatch(r -> r.contains("method=transfer-to") && r.endsWith("syscalls.write/op"));
        assertThat(regressed).noneMatch(r -> r.contains("method=stream"));

        ObjectMapper json = new ObjectMapper();
        ObjectNode baseline = (ObjectNode) json.readTree(tmp.resolve("baseline.json").toFile());
        baseline.set("ratiosDependOn", json.valueToTree(new HostFingerprint("Other CPU 9000", 64, 256, "none")));
        json.writeValue(tmp.resolve("baseline.json").toFile(), baseline);
        Path otherHost = tmp.resolve("other-host.json");
        assertThat(PerfGate.run(args("--verdict-json", otherHost.toString()).toArray(String[]::new)))
                .as("ratios judged against a baseline from another host").isEqualTo(GateReport.EXIT_OK);
        List<JsonNode> ratios = new ArrayList<>();
        json.readTree(otherHost.toFile()).get("verdicts").forEach(v -> {
            if (v.get("kind").asText().equals("RATIO")) {
                ratios.add(v);
            }
        });
        assertThat(ratios).isNotEmpty().allSatisfy(v -> {
            assertThat(v.get("outcome").asText()).isEqualTo("INFO");
            assertThat(v.get("note").asText()).startsWith("not judged: baseline from another host (CPU ");
        });
    }
}
