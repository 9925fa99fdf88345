package io.xferbench.server.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ColdPaths#load()} in a fresh JVM (this one has loaded much already) leaves loaded every class an answer to a
 * request under EMFILE needs: a class first loaded with no descriptor left throws NoClassDefFoundError.
 */
@Timeout(60)
class ColdPathsTest {
    private static final List<String> NEEDED = List.of(
            "io.xferbench.server.request.Refused",
            "io.xferbench.server.request.FailureAnswers",
            "io.xferbench.server.request.FailureAnswer$Answered",
            "io.xferbench.server.request.FailureAnswer$Internal",
            "io.xferbench.server.request.FailureStatus",
            "io.xferbench.server.request.ClientMessages");

    @Test
    void loadLeavesTheOutOfDescriptorsAnswersClassesLoaded() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process child = new ProcessBuilder(java, "-Xlog:class+load=info", "-cp", System.getProperty("java.class.path"),
                Load.class.getName()).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        List<String> loaded = out.lines().filter(l -> l.contains("[class,load]"))
                .map(l -> l.replaceFirst(".*\\[class,load\\] (\\S+).*", "$1")).toList();
        assertThat(loaded).as("classes loaded by ColdPaths.load()").containsAll(NEEDED);
    }

    /** The child: loads the cold paths and nothing else. */
    static final class Load {
        public static void main(String[] args) {
            ColdPaths.load();
        }
    }
}
