package io.xferbench.jmh.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.jmh.gate.WorkflowSteps.Step;
import io.xferbench.nativeio.JvmFlags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the example workflow's {@code run:} steps (.github/workflows/perf-gate.yml) in order, job by job, with bash
 * as GitHub runs them ({@code bash --noprofile --norc -eo pipefail}), so a typo in a step fails here.
 *
 * <p>Covered: every {@code run:} script's shell syntax and command names; the {@code perf-gate} command lines,
 * parsed and checked by the real {@link PerfGate} in its dry run ({@value PerfGate#DRY_RUN_ENV}=1: options, benchmark
 * and method names; it runs nothing); the workflow's {@code env} and the {@code $GITHUB_*} variables a step uses.
 * Substituted: {@code sudo} runs its command unprivileged, and {@code apt-get}, {@code sysctl} and {@code chmod} under
 * sudo only print; {@code ./mvnw} only prints (a build inside this build's test phase would rebuild its own jars).
 * Not run: {@code uses:} steps (checkout, setup-java, upload-artifact): their inputs are checked instead (the JDK and
 * Maven cache of both jobs). Not evaluated: {@code if:} conditions.
 */
class PerfGateWorkflowTest {
    private static final Path WORKFLOW = Path.of("..", ".github", "workflows", "perf-gate.yml");
    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{\\{\\s*env\\.(\\w+)\\s*}}");

    @TempDir
    Path tmp;

    @Test
    void everyRunStepOfBothJobsSucceedsInOrder() throws Exception {
        WorkflowSteps wf = WorkflowSteps.parse(Files.readString(WORKFLOW));
        assertThat(wf.jobs()).containsOnlyKeys("gate", "baseline");

        String gate = runJob(wf, "gate");
        assertThat(gate).contains("perf-gate: dry run").contains("would judge against jmh/gate/baseline-github-ubuntu-24.04.json")
                .contains("counts only").contains("mvnw -B -q -pl jmh -am package -DskipTests");

        String baseline = runJob(wf, "baseline");
        assertThat(baseline).contains("would measure a baseline into jmh/gate/baseline-github-ubuntu-24.04.json");
    }

    @Test
    void bothJobsUseOneJdkAndCacheMaven() throws Exception {
        WorkflowSteps wf = WorkflowSteps.parse(Files.readString(WORKFLOW));
        List<String> jdks = new ArrayList<>();
        for (List<Step> steps : wf.jobs().values()) {
            Step java = steps.stream().filter(s -> s.uses() != null && s.uses().startsWith("actions/setup-java@")).findFirst().orElseThrow();
            assertThat(java.with()).containsEntry("cache", "maven").containsEntry("distribution", "temurin");
            jdks.add(java.with().get("java-version"));
            assertThat(steps).filteredOn(s -> s.uses() != null)
                    .allSatisfy(s -> assertThat(s.uses()).matches("actions/(checkout|setup-java|upload-artifact)@v\\d+"));
        }
        // The runner baseline is measured by the baseline job and judged by the gate job: the same JDK, or the gate refuses.
        assertThat(jdks).hasSize(2).containsOnly(jdks.get(0)).allMatch(v -> v.matches("\\d+"));
    }

    /** The test can fail: the same workflow with a misspelt option does not get through its steps. */
    @Test
    void aTypoInAStepFails() throws Exception {
        String yaml = Files.readString(WORKFLOW).replace("--counts-only", "--counts-onyl");
        WorkflowSteps wf = WorkflowSteps.parse(yaml);
        assertThat(wf.jobs().get("gate")).anyMatch(s -> s.run() != null && s.run().contains("--counts-onyl"));
        assertThatThrownBy(() -> runJob(wf, "gate"))
                .hasMessageContaining("Counts gate").hasMessageContaining("--counts-onyl");

        WorkflowSteps command = WorkflowSteps.parse(Files.readString(WORKFLOW).replace("sudo sysctl -w", "sudo sysclt -w"));
        assertThatThrownBy(() -> runJob(command, "gate")).hasMessageContaining("sysclt");
    }

    /** Runs the job's run: steps in one fresh workspace; returns their output; throws naming the step that failed. */
    private String runJob(WorkflowSteps wf, String job) throws Exception {
        Path ws = Files.createDirectories(tmp.resolve(job + "-" + System.nanoTime()));
        Path bin = Files.createDirectories(ws.resolve(".stubs"));
        stub(bin.resolve("sudo"), """
                while [ "${1#-}" != "$1" ]; do shift; done
                case "$1" in apt-get|sysctl|chmod) echo "as root: $*"; exit 0 ;; esac
                exec "$@"
                """);
        stub(ws.resolve("mvnw"), "echo \"mvnw $*\"\n");
        Files.createDirectories(ws.resolve("scripts"));
        String java = ProcessHandle.current().info().command().orElse("java");
        String flags = JvmFlags.required().stream().map(a -> "'" + a + "'").collect(Collectors.joining(" "));
        stub(ws.resolve("scripts/perf-gate"), PerfGate.DRY_RUN_ENV + "=1 exec '" + java + "' " + flags + " -cp '"
                + System.getProperty("java.class.path") + "' " + PerfGate.class.getName() + " \"$@\"\n");

        StringBuilder all = new StringBuilder();
        for (Step step : wf.jobs().get(job)) {
            if (step.run() == null) {
                continue;
            }
            Matcher m = EXPRESSION.matcher(step.run());
            String script = m.replaceAll(r -> Matcher.quoteReplacement(wf.env().getOrDefault(r.group(1), "")));
            assertThat(script).as("step %s uses an expression this test cannot substitute", step.name()).doesNotContain("${{");
            ProcessBuilder pb = new ProcessBuilder("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
                    .directory(ws.toFile()).redirectErrorStream(true).redirectOutput(ws.resolve("step.log").toFile());
            Map<String, String> env = pb.environment();
            env.putAll(wf.env());
            env.put("PATH", bin + ":" + env.get("PATH"));
            env.put("JAVA_HOME", System.getProperty("java.home"));
            env.put("GITHUB_STEP_SUMMARY", ws.resolve("step-summary.md").toString());
            env.put("GITHUB_WORKSPACE", ws.toString());
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("step " + step.name() + " did not finish in 120 s");
            }
            String out = Files.readString(ws.resolve("step.log"));
            all.append(out);
            if (p.exitValue() != 0) {
                throw new AssertionError("step " + step.name() + " of job " + job + " exited " + p.exitValue() + ":\n" + script + "\n" + out);
            }
        }
        return all.toString();
    }

    private static void stub(Path file, String body) throws IOException {
        Files.writeString(file, "#!/usr/bin/env bash\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
