package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/fio-compare} SIGKILLed while fio reads takes fio with it. Runs a copy of the scripts with a stub JDK
 * (its TwinFile makes a small file) and a stub fio that records its pid and waits. The old script ran each reader
 * behind a pipe inside {@code $(...)}: its parent was the substitution's subshell, which outlives the script, so the
 * reader ran on to its end as an orphan (seen: the O_DIRECT reader of a 256 MiB run, 12 s in).
 */
class FioCompareKillTest {
    private static final Path SCRIPTS = Path.of("..", "scripts");

    private static final String STUB_JAVA = """
            #!/usr/bin/env bash
            case " $* " in
              *" -XshowSettings:properties "*) echo "    java.specification.version = 25" >&2; exit 0 ;;
              *" io.xferbench.twin.TwinFile "*) head -c 4096 /dev/zero > "$STUB_DIR/file.dat"
                echo "$STUB_DIR/file.dat 4096 warm"; exit 0 ;;
            esac
            exit 0
            """;

    private static final String STUB_FIO = """
            #!/usr/bin/env bash
            echo $$ >> "$STUB_PIDS"
            exec sleep 60
            """;

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void aKilledFioCompareTakesItsReaderWithIt(@TempDir Path dir) throws Exception {
        MethodAssumptions.assumeAvailable("setpriv", Files.isExecutable(Path.of("/usr/bin/setpriv")), "no /usr/bin/setpriv");
        Path root = dir.resolve("root");
        Files.createDirectories(root.resolve("scripts/lib"));
        Files.copy(SCRIPTS.resolve("fio-compare"), root.resolve("scripts/fio-compare"));
        try (var lib = Files.list(SCRIPTS.resolve("lib"))) {
            for (Path f : lib.toList()) {
                Files.copy(f, root.resolve("scripts/lib").resolve(f.getFileName()));
            }
        }
        Path jar = root.resolve("twin/target/xferbench-twin.jar");  // newer than every source of this tree: no build
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "");
        Path bin = Files.createDirectories(dir.resolve("jdk/bin"));
        executable(bin.resolve("java"), STUB_JAVA);
        executable(bin.resolve("javac"), STUB_JAVA);
        Path stubs = Files.createDirectories(dir.resolve("stubs"));
        executable(stubs.resolve("fio"), STUB_FIO);
        Path pids = dir.resolve("pids");

        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("scripts/fio-compare").toString(), "4KiB", "--rounds", "1")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("JAVA_HOME", bin.getParent().toString());
        pb.environment().put("PATH", stubs + ":" + System.getenv("PATH"));
        pb.environment().put("STUB_DIR", dir.toString());
        pb.environment().put("STUB_PIDS", pids.toString());
        pb.environment().put("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString());
        Process script = pb.start();
        Optional<ProcessHandle> fio = Optional.empty();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (fio.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                if (Files.exists(pids)) {
                    fio = Files.readAllLines(pids).stream().filter(l -> !l.isBlank()).findFirst()
                            .flatMap(l -> ProcessHandle.of(Long.parseLong(l.strip())));
                }
            }
            assertThat(fio).as("fio runs").isPresent();
            Thread.sleep(200);  // the stub has exec'd its sleep
            script.destroyForcibly().waitFor();
            try {
                fio.get().onExit().get(10, TimeUnit.SECONDS);
            } catch (TimeoutException stillThere) {
                // asserted below
            }
            assertThat(fio.get().isAlive()).as("fio 10 s after the script's SIGKILL").isFalse();
            assertThat(List.of(dir.resolve("tmp").toFile().list())).as("left in TMPDIR").isEmpty();
        } finally {
            script.destroyForcibly();
            fio.ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
