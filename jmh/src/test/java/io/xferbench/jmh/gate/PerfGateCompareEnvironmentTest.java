package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --compare} applies the run's environment rules with the second file in place of a run here: counts from
 * another JDK, kernel or Netty are refused (exit 2, the run's message), ratios from another host are not judged and
 * counts are judged on any host. The old code compared whatever it was given.
 */
class PerfGateCompareEnvironmentTest {
    private static final HostFingerprint OTHER_HOST = new HostFingerprint("Other CPU 9000", 64, 256, "none");

    @TempDir
    Path tmp;

    private record Outcome(int exit, String out, String err) {
    }

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(PerfGateCompareEnvironmentTest.class.getResource("/gate/" + name).toURI());
    }

    /** A baseline file holding the fixture baseline run, recorded as measured in {@code counts} on {@code host}. */
    private Path baseline(CountEnvironment counts, HostFingerprint host) throws Exception {
        Path file = tmp.resolve("baseline.json");
        Baseline.write(file, GatePolicy.DEFAULT, counts, host, new Baseline.Environment(io.xferbench.core.metrics.EnvironmentInfo.describe(null), null), fixture("baseline-run.json"));
        return file;
    }

    private static Outcome compare(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = PerfGate.run(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "kernel", "netty"})
    void aBaselineFromAnotherCountEnvironmentIsRefusedWithTheRunsMessage(String differs) throws Exception {
        CountEnvironment here = CountEnvironment.current();
        CountEnvironment there = switch (differs) {
            case "jdk" -> new CountEnvironment(here.jdkFeature() - 4, here.kernel(), here.netty());
            case "kernel" -> new CountEnvironment(here.jdkFeature(), "5.4", here.netty());
            default -> new CountEnvironment(here.jdkFeature(), here.kernel(), "4.1.0.Final");
        };
        Path a = baseline(there, HostFingerprint.current());
        Path b = fixture("baseline-run.json");

        Outcome o = compare("--compare", a.toString(), b.toString());

        assertThat(o.exit()).as(o.out() + o.err()).isEqualTo(GateReport.EXIT_COULD_NOT_RUN);
        assertThat(o.err().strip().lines()).hasSize(1);
        // Word for word the rule a run applies, with the results' file where a run says "here".
        assertThat(o.err().strip()).isEqualTo("perf-gate: could not run: "
                + Baseline.read(a).refusal(here, "in " + b, a).orElseThrow());
        assertThat(o.err()).contains("syscall counts depend on the environment").contains(" in " + b + ", ")
                .contains("scripts/perf-gate --update-baseline --baseline " + a);
        assertThat(o.out()).isEmpty();
    }

    /** JMH records the JDK with every result: results measured on JDK 21 are refused by a JDK 25 baseline. */
    @Test
    void resultsFromAnotherJdkAsJmhRecordedItAreRefused() throws Exception {
        CountEnvironment here = CountEnvironment.current();
        int other = here.jdkFeature() == 21 ? 17 : 21;
        ObjectMapper json = new ObjectMapper();
        JsonNode results = json.readTree(fixture("baseline-run.json").toFile());
        results.forEach(r -> ((ObjectNode) r).put("jdkVersion", other + ".0.2"));
        Path b = tmp.resolve("jdk" + other + ".json");
        json.writeValue(b.toFile(), results);

        Outcome o = compare("--compare", baseline(here, HostFingerprint.current()).toString(), b.toString());

        assertThat(o.exit()).as(o.out() + o.err()).isEqualTo(GateReport.EXIT_COULD_NOT_RUN);
        assertThat(o.err()).contains("JDK " + other + " in " + b + ", JDK " + here.jdkFeature() + " in the baseline");
    }

    @Test
    void ratiosAgainstABaselineFromAnotherHostAreNotJudgedAndSaySo() throws Exception {
        Path a = baseline(CountEnvironment.current(), OTHER_HOST);
        Path verdicts = tmp.resolve("verdicts.json");

        Outcome o = compare("--compare", a.toString(), fixture("ratio-regression-run.json").toString(),
                "--verdict-json", verdicts.toString());

        assertThat(o.exit()).as(o.out() + o.err()).isEqualTo(GateReport.EXIT_OK);
        assertThat(o.out()).contains("perf-gate: ratios not judged: baseline from another host (CPU "
                        + HostFingerprint.current().cpuModel() + " in ")
                .contains("Other CPU 9000 in the baseline")
                .contains("the ratio baseline is per host")
                .contains("scripts/perf-gate --update-baseline --iterations 5 --baseline " + a);
        List<JsonNode> ratios = ratioVerdicts(verdicts);
        assertThat(ratios).isNotEmpty().allSatisfy(v -> {
            assertThat(v.get("outcome").asText()).isEqualTo("INFO");
            assertThat(v.get("note").asText()).startsWith("not judged: baseline from another host (CPU ");
        });
    }

    @Test
    void aBaselineWithoutAHostJudgesNoRatiosAndSaysWhy() throws Exception {
        Path a = baseline(CountEnvironment.current(), null);
        Path verdicts = tmp.resolve("verdicts.json");

        Outcome o = compare("--compare", a.toString(), fixture("ratio-regression-run.json").toString(),
                "--verdict-json", verdicts.toString());

        assertThat(o.exit()).as(o.out() + o.err()).isEqualTo(GateReport.EXIT_OK);
        assertThat(o.out()).contains("ratios not judged: " + a + " does not record the host its ratios were measured on");
        assertThat(ratioVerdicts(verdicts)).isNotEmpty()
                .allSatisfy(v -> assertThat(v.get("outcome").asText()).isEqualTo("INFO"));
    }

    /** The host check does not switch ratios off: on the baseline's host a large significant drop still fails. */
    @Test
    void ratiosAreJudgedOnTheBaselinesHost() throws Exception {
        Path a = baseline(CountEnvironment.current(), HostFingerprint.current());

        Outcome o = compare("--compare", a.toString(), fixture("ratio-regression-run.json").toString());

        assertThat(o.exit()).as(o.out()).isEqualTo(GateReport.EXIT_REGRESSION);
        assertThat(o.out()).doesNotContain("not judged: baseline from another host").contains("ratio to stream");
    }

    /** Counts do not depend on the host: a baseline from another host still passes clean counts and fails a lost path. */
    @Test
    void countsAreJudgedOnAnyHost() throws Exception {
        Path a = baseline(CountEnvironment.current(), OTHER_HOST);

        assertThat(compare("--compare", a.toString(), fixture("baseline-run.json").toString()).exit())
                .isEqualTo(GateReport.EXIT_OK);
        Outcome bad = compare("--compare", a.toString(), fixture("count-regression-run.json").toString());
        assertThat(bad.exit()).as(bad.out()).isEqualTo(GateReport.EXIT_REGRESSION);
        assertThat(bad.out()).contains("syscalls.read/op");
    }

    /** Two baseline files: the second one's own record is the environment of its results. */
    @Test
    void aSecondBaselineFileIsJudgedByWhatItRecords() throws Exception {
        Path a = baseline(CountEnvironment.current(), HostFingerprint.current());
        Path b = tmp.resolve("b.json");
        CountEnvironment here = CountEnvironment.current();
        Baseline.write(b, GatePolicy.DEFAULT, new CountEnvironment(here.jdkFeature(), "5.4", here.netty()),
                HostFingerprint.current(), new Baseline.Environment(io.xferbench.core.metrics.EnvironmentInfo.describe(null), null), fixture("baseline-run.json"));
        assertThat(compare("--compare", a.toString(), b.toString()).err()).contains("kernel 5.4 in " + b);

        Baseline.write(b, GatePolicy.DEFAULT, null, null, new Baseline.Environment(io.xferbench.core.metrics.EnvironmentInfo.describe(null), null), fixture("baseline-run.json"));
        Outcome o = compare("--compare", a.toString(), b.toString());
        assertThat(o.exit()).isEqualTo(GateReport.EXIT_COULD_NOT_RUN);
        assertThat(o.err().strip()).isEqualTo("perf-gate: could not run: " + b
                + " does not record what its counts depend on (JDK, kernel, Netty)");
    }

    private static List<JsonNode> ratioVerdicts(Path verdictJson) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        new ObjectMapper().readTree(verdictJson.toFile()).get("verdicts").forEach(v -> {
            if (v.get("kind").asText().equals("RATIO")) {
                out.add(v);
            }
        });
        return out;
    }
}
