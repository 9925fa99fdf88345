package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A launcher stopped while it builds its stale jars (scripts/lib/build.sh) takes the build with it. Runs a copy of the
 * scripts whose {@code ./mvnw} is a stub that records its pid and waits, as the real wrapper's {@code exec java} does.
 * The old scripts left Maven's JVM building on as an orphan after a SIGKILL of the script (seen with
 * {@code scripts/client}: the java of {@code ./mvnw -pl client -am package} ran to its end under pid 1), and a SIGTERM
 * of a script with signal traps (scripts/bench) waited for the whole build before it ended.
 */
class ScriptBuildKillTest {
    private static final Path SCRIPTS = Path.of("..", "scripts");

    private static final String STUB_JAVA = """
            #!/usr/bin/env bash
            case " $* " in
              *" -XshowSettings:properties "*) echo "    java.specification.version = 25" >&2; exit 0 ;;
            esac
            exit 0
            """;

    /** The wrapper's stand-in: a build that never ends by itself. */
    private static final String STUB_MVNW = """
            #!/usr/bin/env bash
            echo $$ >> "$STUB_PIDS"
            exec sleep 60
            """;

    private static Path fakeTree(Path dir) throws IOException {
        Path root = dir.resolve("root");
        Files.createDirectories(root.resolve("scripts/lib"));
        for (String script : List.of("client", "bench")) {
            Files.copy(SCRIPTS.resolve(script), root.resolve("scripts").resolve(script));
        }
        try (var lib = Files.list(SCRIPTS.resolve("lib"))) {
            for (Path f : lib.toList()) {
                Files.copy(f, root.resolve("scripts/lib").resolve(f.getFileName()));
            }
        }
        // No jars: every script builds first.
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        executable(root.resolve("mvnw"), STUB_MVNW);
        Path bin = Files.createDirectories(dir.resolve("jdk/bin"));
        executable(bin.resolve("java"), STUB_JAVA);
        executable(bin.resolve("javac"), STUB_JAVA);
        return root;
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Starts {@code script}, waits for its build to start and sends it {@code signal}; returns the build's process. */
    private static ProcessHandle signalDuringBuild(Path dir, String script, String signal) throws Exception {
        Path root = fakeTree(dir);
        Path pids = dir.resolve("pids");
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("scripts").resolve(script).toString(), "--size", "1MiB")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
        pb.environment().put("STUB_PIDS", pids.toString());
        pb.environment().put("XFERBENCH_DATA_DIR", dir.resolve("data").toString());
        pb.environment().put("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString());
        Process launcher = pb.start();
        Optional<ProcessHandle> build = Optional.empty();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (build.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                if (Files.exists(pids)) {
                    build = Files.readAllLines(pids).stream().filter(l -> !l.isBlank()).findFirst()
                            .flatMap(l -> ProcessHandle.of(Long.parseLong(l.strip())));
                }
            }
            assertThat(build).as("the build runs").isPresent();
            Thread.sleep(200);  // the stub has exec'd its sleep, as mvnw execs java
            new ProcessBuilder("kill", "-s", signal, Long.toString(launcher.pid())).start().waitFor();
            assertThat(launcher.waitFor(20, TimeUnit.SECONDS)).as(script + " ends after SIG" + signal).isTrue();
            try {
                build.get().onExit().get(10, TimeUnit.SECONDS);
            } catch (TimeoutException stillThere) {
                // asserted by the caller
            }
            return build.get();
        } finally {
            launcher.destroyForcibly();
            build.ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aScriptKilledOutrightDuringItsBuildTakesTheBuildWithIt(@TempDir Path dir) throws Exception {
        MethodAssumptions.assumeAvailable("setpriv", Files.isExecutable(Path.of("/usr/bin/setpriv")), "no /usr/bin/setpriv");
        ProcessHandle build = signalDuringBuild(dir, "client", "KILL");
        assertThat(build.isAlive()).as("the build after the script's SIGKILL").isFalse();
    }

    @Test
    void aScriptTerminatedDuringItsBuildStopsTheBuildAndEnds(@TempDir Path dir) throws Exception {
        List<String> alive = new ArrayList<>();
        for (String script : List.of("client", "bench")) {
            Path sub = Files.createDirectories(dir.resolve(script));
            if (signalDuringBuild(sub, script, "TERM").isAlive()) {
                alive.add(script);
            }
        }
        assertThat(alive).as("scripts whose build outlived their SIGTERM").isEmpty();
    }
}
