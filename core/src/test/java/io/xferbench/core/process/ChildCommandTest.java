package io.xferbench.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.process.ChildCommand.DeathSignal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildCommandTest {
    @TempDir
    Path dir;

    @Test
    void whereSetprivExistsTheCommandRunsBehindItWithTheSignal() throws Exception {
        Path setpriv = Files.createFile(dir.resolve("setpriv"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));

        assertThat(ChildCommand.dyingWithParent(DeathSignal.KILL, setpriv).of(List.of("perf", "stat")))
                .containsExactly(setpriv.toString(), "--pdeathsig", "KILL", "--", "perf", "stat");
        assertThat(ChildCommand.dyingWithParent(DeathSignal.TERM, setpriv).of(List.of("nginx")))
                .containsExactly(setpriv.toString(), "--pdeathsig", "TERM", "--", "nginx");
    }

    @Test
    void withoutAnExecutableSetprivTheCommandRunsBare() throws Exception {
        Path notExecutable = Files.createFile(dir.resolve("setpriv"));

        assertThat(ChildCommand.dyingWithParent(DeathSignal.KILL, dir.resolve("missing")).of(List.of("perf", "stat")))
                .containsExactly("perf", "stat");
        assertThat(ChildCommand.dyingWithParent(DeathSignal.KILL, notExecutable).of(List.of("perf")))
                .containsExactly("perf");
        assertThat(ChildCommand.plain().of(List.of("perf"))).containsExactly("perf");
    }

    @Test
    void aLauncherGoesBetweenSetprivAndTheJavaOfThisJvm() throws Exception {
        Path setpriv = Files.createFile(dir.resolve("setpriv"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));

        List<String> command = ChildCommand.dyingWithParent(DeathSignal.KILL, setpriv).then(List.of("taskset", "-c", "1"))
                .java(List.of("-Xmx48m"), "a.Main", List.of("x", "y"));

        assertThat(command).containsExactly(setpriv.toString(), "--pdeathsig", "KILL", "--", "taskset", "-c", "1",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
                "-cp", System.getProperty("java.class.path"), "a.Main", "x", "y");
    }
}
