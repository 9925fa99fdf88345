package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -jar} on a JVM older than 21 says in one line what it needs, instead of UnsupportedClassVersionError. */
class LauncherTest {
    private static final Path SERVER_JAR = ServerJar.PATH;

    /** A JDK or JRE under /usr/lib/jvm whose feature release is below 21 (Debian's default 17, say). */
    private static Optional<Path> oldJava() throws Exception {
        try (Stream<Path> homes = Files.list(Path.of("/usr/lib/jvm"))) {
            for (Path home : homes.sorted().toList()) {
                Path release = home.resolve("release");
                Path java = home.resolve("bin/java");
                if (Files.isExecutable(java) && Files.exists(release)) {
                    String text = Files.readString(release);
                    int at = text.indexOf("JAVA_VERSION=\"");
                    if (at >= 0) {
                        String v = text.substring(at + 14, text.indexOf('"', at + 14));
                        int feature = Integer.parseInt(v.startsWith("1.") ? v.substring(2, 3) : v.split("\\.")[0]);
                        if (feature < 21) {
                            return Optional.of(java);
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    @Test
    void anOldJavaIsToldWhatItNeedsInOneLine() throws Exception {
        Optional<Path> java = oldJava();
        MethodAssumptions.assumeAvailable("launcher on an old JVM", java.isPresent() && Files.exists(SERVER_JAR)
                ? Availability.AVAILABLE : Availability.unavailable("no JDK older than 21 under /usr/lib/jvm, or no server jar"));
        Process p = new ProcessBuilder(java.get().toString(), "-jar", SERVER_JAR.toString(), "--help").start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(err.strip().lines()).hasSize(1);
        assertThat(err).contains("needs Java 21 or newer").doesNotContain("UnsupportedClassVersionError");
    }

    @Test
    void aCurrentJavaRunsTheRealMain() throws Exception {
        ServerJar.assumeBuilt("server jar");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-jar", SERVER_JAR.toString(), "--help").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("--data-dir");
    }

    /** A jar in a directory whose name a URL escapes (a space, a percent sign) starts: its location is a file URL. */
    @Test
    void aJarUnderAPathWithASpaceStarts(@TempDir Path dir) throws Exception {
        ServerJar.assumeBuilt("server jar");
        Path jar = Files.copy(SERVER_JAR, Files.createDirectories(dir.resolve("my jars 100%")).resolve("xferbench-server.jar"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-jar", jar.toString(), "--help").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("--data-dir");
    }
}
