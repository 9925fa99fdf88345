package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate refuses a baseline measured where counts would differ for reasons other than the code. */
class CountEnvironmentTest {
    private static final CountEnvironment BASE = new CountEnvironment(25, "6.18", "4.2.18.Final");

    @TempDir
    Path tmp;

    @Test
    void kernelVersionsAreCutToMajorMinor() {
        assertThat(CountEnvironment.majorMinor("6.18.44-fc-v782")).isEqualTo("6.18");
        assertThat(CountEnvironment.majorMinor("6.8.0-1017-azure")).isEqualTo("6.8");
        assertThat(CountEnvironment.majorMinor("weird")).isEqualTo("weird");
    }

    @Test
    void theCurrentEnvironmentIsThisJvmsAndKnowsNetty() {
        CountEnvironment here = CountEnvironment.current();
        assertThat(here.jdkFeature()).isEqualTo(Runtime.version().feature());
        assertThat(here.kernel()).matches("\\d+\\.\\d+");
        assertThat(here.netty()).startsWith("4.");
        assertThat(here.differencesFrom(here)).isEmpty();
    }

    @Test
    void everyDifferenceIsNamed() {
        assertThat(new CountEnvironment(25, "6.18", "4.2.18.Final").differencesFrom(BASE)).isEmpty();
        assertThat(new CountEnvironment(21, "6.8", "4.2.19.Final").differencesFrom(BASE)).containsExactly(
                "JDK 21 here, JDK 25 in the baseline", "kernel 6.8 here, 6.18 in the baseline",
                "Netty 4.2.19.Final here, 4.2.18.Final in the baseline");
    }

    @Test
    void aBaselineFromAnotherJdkIsRefusedInOneLineThatSaysHowToRebaseline() {
        Baseline b = new Baseline(GatePolicy.DEFAULT, BASE, null, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), List.of());
        Path file = Path.of("jmh/gate/baseline.json");
        assertThat(b.refusal(BASE, file)).isEmpty();
        String why = b.refusal(new CountEnvironment(21, "6.18", "4.2.18.Final"), file).orElseThrow();
        assertThat(why).doesNotContain("\n").contains("JDK 21 here, JDK 25 in the baseline")
                .contains("scripts/perf-gate --update-baseline --baseline jmh/gate/baseline.json").doesNotContain("kernel");
        assertThat(new Baseline(GatePolicy.DEFAULT, null, null, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode(), List.of()).refusal(BASE, file).orElseThrow())
                .contains("does not record what its counts depend on").contains("--update-baseline");
    }

    @Test
    void theBaselineFileKeepsWhatCountsDependOn() throws Exception {
        Path results = Files.writeString(tmp.resolve("results.json"), "[]");
        Path file = tmp.resolve("baseline.json");
        Baseline.write(file, GatePolicy.DEFAULT, BASE, null, new Baseline.Environment(io.xferbench.core.metrics.EnvironmentInfo.describe(null), null), results);
        assertThat(Baseline.read(file).countsDependOn()).isEqualTo(BASE);
    }

    /** The refusal happens before anything runs: exit 2 and one line, even where perf is unavailable. */
    @Test
    void perfGateExitsTwoWithOneLineBeforeRunningAnything() throws Exception {
        Path results = Files.writeString(tmp.resolve("results.json"), "[]");
        Path file = tmp.resolve("baseline.json");
        CountEnvironment here = CountEnvironment.current();
        Baseline.write(file, GatePolicy.DEFAULT, new CountEnvironment(here.jdkFeature() - 4, here.kernel(), here.netty()),
                null, new Baseline.Environment(io.xferbench.core.metrics.EnvironmentInfo.describe(null), null), results);

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        int exit;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = PerfGate.run("--counts-only", "--baseline", file.toString(), "--jmh-log", tmp.resolve("jmh.log").toString());
        } finally {
            System.setErr(old);
        }
        assertThat(exit).isEqualTo(GateReport.EXIT_COULD_NOT_RUN);
        String text = err.toString(StandardCharsets.UTF_8);
        assertThat(text.strip().lines()).hasSize(1);
        assertThat(text).startsWith("perf-gate: could not run: ").contains("JDK " + here.jdkFeature() + " here, JDK "
                + (here.jdkFeature() - 4) + " in the baseline").contains("--update-baseline");
        assertThat(tmp.resolve("jmh.log")).doesNotExist();
    }
}
