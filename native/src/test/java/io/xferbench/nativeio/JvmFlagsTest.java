package io.xferbench.nativeio;

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
 * Maven and bash cannot read {@link JvmFlags}, so they keep copies: this holds each copy to the list, and fails on a
 * copy anywhere else (a new script or launcher should take the flags from JvmFlags or scripts/lib/jvm-flags.sh).
 */
class JvmFlagsTest {
    /** Tests run in the module's directory. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Where the flags may be spelled out: the list and its bash copy (POM copies are checked below). */
    private static final Set<String> OWNERS = Set.of("native/src/main/java/io/xferbench/nativeio/JvmFlags.java",
            "scripts/lib/jvm-flags.sh", "native/src/test/java/io/xferbench/nativeio/JvmFlagsTest.java");
    private static final Pattern FLAG = Pattern.compile("--add-opens|--enable-native-access");

    private static String read(String path) throws IOException {
        return Files.readString(ROOT.resolve(path), StandardCharsets.UTF_8);
    }

    private static List<String> all(Pattern p, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.add(m.group(1).trim());
        }
        return out;
    }

    @Test
    void theParentPomsPropertyIsTheList() throws Exception {
        assertThat(all(Pattern.compile("<xferbench.jvm.opens>(.*?)</xferbench.jvm.opens>"), read("pom.xml")))
                .containsExactly(String.join(" ", JvmFlags.required()));
    }

    @Test
    void everyManifestOpensAndAllowsWhatTheListDoes() throws Exception {
        int manifests = 0;
        for (String module : List.of("server", "client", "jmh", "disk", "twin")) {
            String pom = read(module + "/pom.xml");
            List<String> opens = all(Pattern.compile("<Add-Opens>(.*?)</Add-Opens>"), pom);
            assertThat(opens).as(module).allMatch(JvmFlags.manifestAddOpens()::equals);
            assertThat(all(Pattern.compile("<Enable-Native-Access>(.*?)</Enable-Native-Access>"), pom)).as(module)
                    .containsExactly("ALL-UNNAMED");
            manifests += opens.size();
        }
        assertThat(manifests).as("server, client and jmh jars open packages").isEqualTo(3);
        assertThat(JvmFlags.manifestAddOpens()).isEqualTo("java.base/sun.nio.ch java.base/java.io");
    }

    @Test
    void theBashCopyIsTheList() throws Exception {
        String sh = read("scripts/lib/jvm-flags.sh");
        List<String> copy = all(Pattern.compile("(?m)^xferbench_jvm_flags=\\((.*)\\)$"), sh);
        assertThat(copy).hasSize(1);
        assertThat(List.of(copy.get(0).split(" +"))).isEqualTo(JvmFlags.required());
        assertThat(sh).contains("xferbench_jmh_jvm_flags+=(" + JvmFlags.UNSAFE_MEMORY_ACCESS + ")");
    }

    @Test
    void noOtherFileSpellsTheFlagsOut() throws Exception {
        List<String> strays = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String rel = ROOT.relativize(f).toString();
                // Documentation shows them; recorded JMH results (*.json) list the flags a past run used.
                if (rel.startsWith(".git") || rel.contains("/target/") || rel.startsWith("docs/") || rel.startsWith("results/")
                        || rel.endsWith(".json") || rel.endsWith(".md") || OWNERS.contains(rel)) {
                    continue;
                }
                if (!(rel.endsWith(".java") || rel.endsWith(".xml") || rel.startsWith("scripts/") || rel.equals("mvnw"))) {
                    continue;
                }
                // The parent POM's property is checked above.
                String text = Files.readString(f, StandardCharsets.UTF_8).replaceAll("<xferbench.jvm.opens>.*?</xferbench.jvm.opens>", "");
                if (FLAG.matcher(text).find()) {
                    strays.add(rel);
                }
            }
        }
        assertThat(strays).as("take the flags from JvmFlags or scripts/lib/jvm-flags.sh").isEmpty();
    }
}
