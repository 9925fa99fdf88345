package io.xferbench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The benchmarks jar's main in a JVM of its own, as {@code scripts/jmh} runs it: what a bad argument gets. */
class BenchMainTest {

    private record Exit(int status, String stdout, String stderr) {
    }

    private static Exit run(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), BenchMain.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        try {
            p.getOutputStream().close();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("BenchMain " + List.of(args) + " still running after 60 s");
            }
            return new Exit(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                    new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
            p.waitFor();
        }
    }

    @Test
    void anOptionJmhDoesNotKnowIsOneLineAndExit2() throws Exception {
        Exit e = run("-bogus");
        assertThat(e.status()).isEqualTo(2);
        assertThat(e.stderr().lines().toList()).singleElement().asString().startsWith("jmh: ").contains("is not a recognized option")
                .endsWith("(see -h)");
        assertThat(e.stdout()).isEmpty();
    }

    @Test
    void aBadValueOfAKnownOptionIsOneLineAndExit2() throws Exception {
        Exit e = run("-f", "two", "Control");
        assertThat(e.status()).isEqualTo(2);
        assertThat(e.stderr().lines().toList()).singleElement().asString().startsWith("jmh: ").contains("two");
    }

    @Test
    void helpIsStillJmhsOwn() throws Exception {
        Exit e = run("-h");
        assertThat(e.status()).isZero();
        assertThat(e.stdout()).contains("Usage: java -jar ... [regexp*] [options]");
    }
}
