package io.xferbench.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every module's tests skip only through {@link MethodAssumptions} (in native, whose tests cannot see core's, through
 * its twin {@code NativeAssumptions}), which fails instead under {@code XFERBENCH_REQUIRE_ALL_METHODS=1}. A direct
 * JUnit or AssertJ assumption, or a {@code @Disabled}/{@code @EnabledIf...} condition, would skip in CI too, and green
 * would no longer mean that every method really ran. Scans the sources (comments and string literals left out) of
 * every module the root pom lists.
 */
class SkipsGoThroughMethodAssumptionsTest {
    /** The only files that may skip a test themselves: both fail instead under the variable. */
    private static final Set<String> HELPERS = Set.of(
            "core/src/test/java/io/xferbench/core/testing/MethodAssumptions.java",
            "native/src/test/java/io/xferbench/nativeio/testing/NativeAssumptions.java");

    /**
     * JUnit 5's and AssertJ's Assumptions (and their static imports), JUnit 4's Assume, the exceptions they throw,
     * JUnit 5's conditions ({@code @Disabled}, {@code @EnabledIf...}, {@code @DisabledOn...}) and custom ones.
     */
    private static final Pattern DIRECT_SKIP = Pattern.compile(String.join("|",
            "\\b(?:BDD|With)?Assumptions\\b", "\\bAssume\\b",
            "\\b(?:assumeTrue|assumeFalse|assumeThat|assumingThat)\\s*\\(",
            "@\\s*(?:[\\w.]+\\.)?(?:Disabled|Enabled)\\w*", "\\bjupiter\\.api\\.condition\\b", "\\bExecutionCondition\\b",
            "\\bTestAbortedException\\b", "\\bAssumptionViolatedException\\b"));

    private static final Pattern MODULE = Pattern.compile("<module>\\s*([^<\\s]+)\\s*</module>");

    @Test
    void noTestSkipsAroundMethodAssumptions() throws IOException {
        Path root = repositoryRoot();
        List<String> modules = modules(root);
        assertThat(modules).as("the modules of " + root.resolve("pom.xml")).contains("core", "native");

        List<String> scanned = new ArrayList<>();
        List<String> direct = new ArrayList<>();
        for (String module : modules) {
            Path tests = root.resolve(module).resolve("src/test");
            if (!Files.isDirectory(tests)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(tests)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    String name = root.relativize(file).toString().replace('\\', '/');
                    scanned.add(name);
                    if (!HELPERS.contains(name)) {
                        direct.addAll(directSkips(name, Files.readString(file, StandardCharsets.UTF_8)));
                    }
                }
            }
        }
        assertThat(direct).as("skips that bypass MethodAssumptions.assumeAvailable (a capability missing here: skip"
                + " through it, so that XFERBENCH_REQUIRE_ALL_METHODS=1 fails instead; anything else: make the test not"
                + " skip)").isEmpty();
        assertThat(scanned).as("test sources scanned under " + root).containsAll(HELPERS);
    }

    @Test
    void theScanSeesDirectSkipsButNotCommentsOrStrings() {
        String source = """
                import static org.junit.jupiter.api.Assumptions.assumeTrue;
                import org.junit.Assume;
                // Assumptions.abort("in a comment");
                /* @Disabled in a block comment */
                class T {
                    @org.junit.jupiter.api.Disabled("reason")
                    @EnabledIfEnvironmentVariable(named = "X", matches = "1")
                    void t() {
                        String s = "Assumptions.abort(";
                        String block = \"""
                                @Disabled Assumptions.abort(
                                \""";
                        assumeFalse(s.isEmpty(), "x");
                        Assume.assumeTrue(true);
                        org.assertj.core.api.Assumptions.assumeThat(1).isOne();
                        MethodAssumptions.assumeAvailable("id", Availability.AVAILABLE);
                        throw new org.opentest4j.TestAbortedException();
                    }
                }
                """;
        assertThat(directSkips("T.java", source)).extracting(s -> s.substring(0, s.indexOf(' ')))
                .containsExactly("T.java:1:", "T.java:2:", "T.java:6:", "T.java:7:", "T.java:13:", "T.java:14:",
                        "T.java:15:", "T.java:17:");
    }

    /** "file:line: the line" for each line of code with a direct skip. */
    private static List<String> directSkips(String name, String source) {
        String[] code = codeOnly(source).split("\n", -1);
        String[] lines = source.split("\n", -1);
        List<String> found = new ArrayList<>();
        for (int i = 0; i < code.length; i++) {
            Matcher m = DIRECT_SKIP.matcher(code[i]);
            if (m.find()) {
                found.add(name + ":" + (i + 1) + ": " + lines[i].strip());
            }
        }
        return found;
    }

    /** The source with comments, string, text block and char literals blanked, line breaks kept. */
    static String codeOnly(String java) {
        StringBuilder out = new StringBuilder(java.length());
        int n = java.length();
        int i = 0;
        while (i < n) {
            int end;
            if (java.startsWith("//", i)) {
                end = java.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (java.startsWith("/*", i)) {
                end = java.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (java.startsWith("\"\"\"", i)) {
                end = i + 3;
                while (end < n && !java.startsWith("\"\"\"", end)) {
                    end += java.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(end + 3, n);
            } else if (java.charAt(i) == '"' || java.charAt(i) == '\'') {
                char quote = java.charAt(i);
                end = i + 1;
                while (end < n && java.charAt(end) != quote && java.charAt(end) != '\n') {
                    end += java.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(end + 1, n);
            } else {
                out.append(java.charAt(i++));
                continue;
            }
            for (int j = i; j < end; j++) {
                out.append(java.charAt(j) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }

    /**
     * The aggregator pom's directory: the nearest one above this module (Surefire's working directory, or its
     * {@code basedir}) whose pom.xml lists modules. Fails rather than skips when there is none.
     */
    private static Path repositoryRoot() throws IOException {
        Path start = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath().normalize();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && MODULE.matcher(Files.readString(pom, StandardCharsets.UTF_8)).find()) {
                return dir;
            }
        }
        throw new AssertionError("no pom.xml listing <module>s in " + start + " or above it");
    }

    private static List<String> modules(Path root) throws IOException {
        Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8));
        List<String> modules = new ArrayList<>();
        while (m.find()) {
            modules.add(m.group(1));
        }
        return modules;
    }
}
