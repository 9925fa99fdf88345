package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A twin harness SIGKILLed mid-run (scripts/twin, found by SIGKILLing it 12 s into a run) takes its child JVMs with it.
 * The old launcher started them bare: the {@link TwinDrain} stayed in accept under pid 1 for good.
 */
class KilledHarnessChildrenTest {

    /** The harness: starts a drain as TwinBench does, prints its children's pids, then waits to be killed. */
    public static void main(String[] args) throws Exception {
        TwinDrainProcess drain = TwinDrainProcess.start(TwinBench.CHILD_JVMS);
        ProcessHandle.current().children().forEach(c -> System.out.println("child " + c.pid()));
        System.out.println("drain on port " + drain.port());
        System.out.flush();
        Thread.sleep(TimeUnit.SECONDS.toMillis(60));
    }

    @Test
    void aKilledHarnessLeavesNoChildJvm() throws Exception {
        MethodAssumptions.assumeAvailable("setpriv", Files.isExecutable(Path.of("/usr/bin/setpriv")), "no /usr/bin/setpriv");
        Process harness = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), KilledHarnessChildrenTest.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<ProcessHandle> children = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(harness.getInputStream(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = out.readLine()) != null && !line.startsWith("drain on port ")) {
                if (line.startsWith("child ")) {
                    ProcessHandle.of(Long.parseLong(line.substring(6))).ifPresent(children::add);
                }
            }
            assertThat(line).as("the drain started").isNotNull();
            assertThat(children).as("the harness's children").isNotEmpty();
            harness.destroyForcibly().waitFor();
            for (ProcessHandle child : children) {
                try {
                    child.onExit().get(10, TimeUnit.SECONDS);
                } catch (TimeoutException stillThere) {
                    // asserted below
                }
            }
            assertThat(children).as("child JVMs 10 s after the harness's SIGKILL").noneMatch(ProcessHandle::isAlive);
        } finally {
            harness.destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
