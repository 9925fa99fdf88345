package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in README.md and docs/*.md leads somewhere: its file exists, and its {@code #anchor} is the
 * GitHub anchor of a heading there. Dated headings get renamed as runs are added, and a link to the old name silently
 * led to the top of the page (three did).
 */
class DocumentedLinksTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    @Test
    void everyRelativeLinkLeadsToAFileAndAHeading() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path doc : docs) {
            for (String link : links(Files.readAllLines(doc))) {
                if (link.matches("^[a-z]+:.*")) {
                    continue; // http:, https:, mailto:: not this test's to reach
                }
                int hash = link.indexOf('#');
                String file = hash < 0 ? link : link.substring(0, hash);
                Path target = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
                if (!Files.exists(target)) {
                    broken.add(ROOT.relativize(doc) + ": " + link + " (no such file)");
                } else if (hash >= 0 && target.toString().endsWith(".md")
                        && !anchors.computeIfAbsent(target, DocumentedLinksTest::anchorsOf).contains(link.substring(hash + 1))) {
                    broken.add(ROOT.relativize(doc) + ": " + link + " (no such heading)");
                }
            }
        }
        assertThat(broken).as("links that lead nowhere").isEmpty();
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(slug("Several client machines: `--client-id` and `merge`")).isEqualTo("several-client-machines---client-id-and-merge");
        assertThat(slug("The proxy: the seed's splice-vs-copy experiment (`scripts/bench-proxy`)"))
                .isEqualTo("the-proxy-the-seeds-splice-vs-copy-experiment-scriptsbench-proxy");
        assertThat(slug("io_uring's ring size")).isEqualTo("io_urings-ring-size");
        assertThat(slug("Corked answers (`--cork-responses`, 2026-11-28, 01:30–02:29 UTC)"))
                .isEqualTo("corked-answers---cork-responses-2026-11-28-01300229-utc");
        assertThat(anchorsOf(List.of("# A", "## A", "```", "# not a heading", "```"))).containsExactlyInAnyOrder("a", "a-1");
    }

    /** Link targets outside fenced code and code spans. */
    private static List<String> links(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private static Set<String> anchorsOf(Path doc) {
        try {
            return anchorsOf(Files.readAllLines(doc));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The anchors GitHub gives a page's headings: a repeated slug gets -1, -2, ... */
    private static Set<String> anchorsOf(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (fenced || !m.matches()) {
                continue;
            }
            String slug = slug(m.group(1));
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    /** github-slugger: the heading's text lower-cased, only letters, digits, marks, '_', '-' and spaces kept, spaces to '-'. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1").replace("`", "").replace("**", "");
        StringBuilder out = new StringBuilder();
        text.toLowerCase(java.util.Locale.ROOT).codePoints().forEach(c -> {
            int type = Character.getType(c);
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_' || type == Character.NON_SPACING_MARK
                    || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK) {
                out.appendCodePoint(c);
            } else if (c == ' ') {
                out.append('-');
            }
        });
        return out.toString();
    }
}
