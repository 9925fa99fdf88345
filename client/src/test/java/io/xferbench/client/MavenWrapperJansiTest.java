package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./mvnw} puts jansi's Linux libraries where Maven's {@code bin/mvn} points jansi ({@code lib/jansi-native}),
 * once, so that jansi loads its library from there instead of copying it to /tmp on every run (a SIGKILLed Maven left
 * the copy and its lock file behind). Runs the real wrapper against a fake distribution whose {@code bin/mvn} only
 * says what it was given.
 */
class MavenWrapperJansiTest {
    private static final Path ROOT = Path.of("..");
    private static final String LIBRARY = "org/fusesource/jansi/internal/native/Linux/x86_64/libjansi.so";
    private static final byte[] LIBRARY_BYTES = "not really a library".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @Test
    void jansisLinuxLibrariesAreUnpackedOnceBesideMavensOwn() throws Exception {
        Path root = fakeCheckout();
        Path home = fakeDistribution();
        Path installed = home.resolve("lib/jansi-native/Linux/x86_64/libjansi.so");
        // What a wrapper killed while unpacking would have left.
        Files.createDirectories(home.resolve("lib/.jansi.killed1/org"));

        assertThat(runWrapper(root, Path.of(System.getProperty("java.home")))).contains("fake mvn ran");
        assertThat(installed).hasBinaryContent(LIBRARY_BYTES);
        assertThat(home.resolve("lib/jansi-native/Windows/x86_64/jansi.dll")).as("Maven's own, untouched").exists();
        try (var left = Files.list(home.resolve("lib"))) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no unpacking directory left")
                    .noneMatch(n -> n.startsWith(".jansi."));
        }

        // Once: a second run leaves what the first put there (a changed file stays changed).
        Files.writeString(installed, "kept");
        assertThat(runWrapper(root, Path.of(System.getProperty("java.home")))).contains("fake mvn ran");
        assertThat(installed).hasContent("kept");
    }

    /**
     * Best effort: an unpacking that fails leaves nothing and Maven runs as before, whether the JDK's jar tool fails
     * or the directory to unpack in cannot be made (a read-only distribution: under set -e that stopped the wrapper).
     */
    @Test
    void aFailedUnpackingLeavesNothingAndMavenStillRuns() throws Exception {
        Path root = fakeCheckout();
        Path home = fakeDistribution();
        Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
        Path realBin = Path.of(System.getProperty("java.home"), "bin");
        Files.createSymbolicLink(jdk.resolve("java"), realBin.resolve("java"));
        Files.createSymbolicLink(jdk.resolve("javac"), realBin.resolve("javac"));
        executable(jdk.resolve("jar"), "#!/usr/bin/env bash\necho 'jar: broken' >&2\nexit 1\n");
        Path failingMktemp = Files.createDirectories(dir.resolve("shims"));
        executable(failingMktemp.resolve("mktemp"), "#!/usr/bin/env bash\necho 'mktemp: read-only file system' >&2\nexit 1\n");

        String out = runWrapper(root, jdk.getParent());
        assertThat(out).contains("fake mvn ran").doesNotContain("jar: broken");
        out = runWrapper(root, Path.of(System.getProperty("java.home")), failingMktemp);
        assertThat(out).contains("fake mvn ran").doesNotContain("read-only");
        assertThat(home.resolve("lib/jansi-native/Linux")).doesNotExist();
        try (var left = Files.list(home.resolve("lib"))) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".jansi."));
        }
    }

    private Path fakeCheckout() throws IOException {
        Path root = Files.createDirectories(dir.resolve("checkout"));
        Files.createDirectories(root.resolve("scripts/lib"));
        Files.createDirectories(root.resolve(".mvn/wrapper"));
        Files.copy(ROOT.resolve("mvnw"), root.resolve("mvnw"));
        Files.copy(ROOT.resolve("scripts/lib/java.sh"), root.resolve("scripts/lib/java.sh"));
        Files.copy(ROOT.resolve(".mvn/wrapper/maven-wrapper.properties"), root.resolve(".mvn/wrapper/maven-wrapper.properties"));
        return root;
    }

    /** Where the wrapper looks for the distribution its properties name: present, so nothing is downloaded. */
    private Path fakeDistribution() throws IOException {
        String url = Files.readAllLines(ROOT.resolve(".mvn/wrapper/maven-wrapper.properties")).stream()
                .filter(l -> l.startsWith("distributionUrl=")).findFirst().orElseThrow();
        String name = url.substring(url.lastIndexOf('/') + 1).replace("-bin.tar.gz", "");
        Path home = Files.createDirectories(dir.resolve("m2/wrapper/dists").resolve(name));
        executable(Files.createDirectories(home.resolve("bin")).resolve("mvn"), "#!/usr/bin/env bash\necho fake mvn ran\n");
        Path windows = Files.createDirectories(home.resolve("lib/jansi-native/Windows/x86_64"));
        Files.writeString(windows.resolve("jansi.dll"), "Maven's");
        try (OutputStream out = Files.newOutputStream(home.resolve("lib/jansi-2.4.2.jar"));
             JarOutputStream jar = new JarOutputStream(out)) {
            jar.putNextEntry(new JarEntry(LIBRARY));
            jar.write(LIBRARY_BYTES);
            jar.closeEntry();
        }
        return home;
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private String runWrapper(Path root, Path javaHome) throws Exception {
        return runWrapper(root, javaHome, null);
    }

    /** Runs ./mvnw -v; {@code shims}, when given, goes first on PATH. */
    private String runWrapper(Path root, Path javaHome, Path shims) throws Exception {
        Path output = dir.resolve("wrapper.out");
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("mvnw").toString(), "-v").redirectErrorStream(true)
                .redirectOutput(output.toFile());
        pb.environment().put("JAVA_HOME", javaHome.toString());
        if (shims != null) {
            pb.environment().put("PATH", shims + ":" + System.getenv("PATH"));
        }
        pb.environment().put("MAVEN_USER_HOME", dir.resolve("m2").toString());
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./mvnw did not end in 60 s");
        }
        String out = Files.readString(output);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
