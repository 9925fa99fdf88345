package io.xferbench.client.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.client.report.Report;
import io.xferbench.core.Sizes;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.logging.LogEntry;

/**
 * Opens each kind of HTML report the client writes (download, upload and proxy runs; render and merge write the same
 * page; load, load-bench and compare write no HTML) in a real browser, built from small results by the real
 * rendering code, at a phone's and a desktop's width. A reader expects: no script or page error, every chart drawn,
 * every row of the run there (a skipped or failed one with its reason), links that lead somewhere, and a page that
 * never scrolls sideways as a whole: a table wider than the screen scrolls inside its own box, a chart shrinks to fit.
 * The screenshots are kept under target/browser-screenshots for a person to look at.
 */
class HtmlReportInBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SCREENSHOTS = Path.of("target", "browser-screenshots");
    /** Rounding of fractional CSS pixels; anything wider is a page the reader has to scroll sideways. */
    private static final int OVERFLOW_TOLERANCE = 1;

    private static HeadlessChromium chromium;

    @TempDir
    static Path pages;

    @BeforeAll
    static void startBrowser() throws IOException {
        chromium = HeadlessChromium.start();
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        if (chromium != null) {
            chromium.close();
        }
    }

    /** Each report kind at a phone's width (mobile emulation: the page's viewport meta applies) and a desktop's. */
    static Stream<Arguments> pagesAndWidths() {
        List<Arguments> cases = new ArrayList<>();
        for (String kind : BrowserFixtures.reports().keySet()) {
            cases.add(Arguments.of(kind, "phone", 375, 800, true));
            cases.add(Arguments.of(kind, "desktop", 1366, 900, false));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} report at {1} width")
    @MethodSource("pagesAndWidths")
    void aReaderSeesTheWholeReport(String kind, String device, int width, int height, boolean mobile) throws IOException {
        Report report = BrowserFixtures.reports().get(kind);
        Path page = pages.resolve(kind + ".html");
        Files.writeString(page, ReportWriter.render(report, ReportFormat.HTML), StandardCharsets.UTF_8);
        JsonNode json = JSON.readTree(ReportWriter.render(report, ReportFormat.JSON));

        chromium.viewport(width, height, mobile);
        chromium.open(page);
        Files.write(SCREENSHOTS.resolve(kind + "-" + device + "-" + width + ".png"), chromium.fullPageScreenshot());

        assertThat(chromium.consoleLog().stream().filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::toString).toList()).as("console errors").isEmpty();
        chartsAreDrawn(report);
        everyRowIsThere(json);
        linksResolve(page);
        noSidewaysScroll(width);
    }

    /**
     * The reports have no links yet and no console output: on a page made to break them, the console and link checks
     * do fail (the report is never hand-written; this page is, to test the checks).
     */
    @Test
    void theChecksSeeABrokenPage() throws IOException {
        Path broken = pages.resolve("broken.html");
        Files.writeString(broken, """
                <!DOCTYPE html><html><head><meta charset="utf-8"><title>broken</title></head><body>
                <a href="#nowhere">anchor</a> <a href="missing.png">file</a>
                <script>console.error("made to fail")</script></body></html>
                """, StandardCharsets.UTF_8);
        chromium.viewport(1366, 900, false);
        chromium.open(broken);
        assertThat(chromium.consoleLog()).anySatisfy(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.SEVERE);
            assertThat(e.getMessage()).contains("made to fail");
        });
        assertThatThrownBy(() -> linksResolve(broken)).isInstanceOf(AssertionError.class).hasMessageContaining("#nowhere");
        Files.writeString(broken, """
                <!DOCTYPE html><html><head><meta charset="utf-8"><title>broken</title></head><body>
                <a id="here" href="#here">anchor</a> <a href="missing.png">file</a></body></html>
                """, StandardCharsets.UTF_8);
        chromium.open(broken);
        assertThatThrownBy(() -> linksResolve(broken)).isInstanceOf(AssertionError.class).hasMessageContaining("missing.png");
    }

    /** As many charts as the report has (the same code chooses them), each with a size and something drawn in it. */
    private static void chartsAreDrawn(Report report) {
        List<Map<String, Object>> charts = script("""
                return [...document.querySelectorAll('svg, img, canvas')].map(e => {
                  const r = e.getBoundingClientRect();
                  return {tag: e.tagName.toLowerCase(), width: r.width, height: r.height,
                          natural: e.tagName === 'IMG' ? e.naturalWidth * e.naturalHeight : -1,
                          marks: e.tagName === 'svg' ? e.querySelectorAll('path, rect, line, polygon, polyline, text').length : -1};
                });""");
        assertThat(charts).as("charts in the page").hasSize(ReportCharts.of(report).size());
        for (Map<String, Object> chart : charts) {
            assertThat(((Number) chart.get("width")).doubleValue()).as("chart width " + chart).isPositive();
            assertThat(((Number) chart.get("height")).doubleValue()).as("chart height " + chart).isPositive();
            switch ((String) chart.get("tag")) {
                case "svg" -> assertThat(((Number) chart.get("marks")).intValue()).as("marks drawn in " + chart).isPositive();
                case "img" -> assertThat(((Number) chart.get("natural")).intValue()).as("image loaded " + chart).isPositive();
                default -> { }
            }
        }
    }

    /**
     * Each result of the JSON is a row of a table, found by its method id (with the relay buffer, as the tables label
     * it), as often as the JSON has it; a skipped or failed row says why.
     */
    private static void everyRowIsThere(JsonNode json) {
        List<List<String>> rows = script("""
                return [...document.querySelectorAll('table tr')].filter(tr => tr.querySelector('td'))
                  .map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent));""");
        assertThat(json.get("results")).as("results in the JSON").isNotEmpty();
        for (JsonNode result : json.get("results")) {
            String label = result.get("method").asText()
                    + (result.get("relayBuffer").isNull() ? "" : " " + Sizes.format(result.get("relayBuffer").asLong()));
            String size = Sizes.format(result.get("size").asLong());
            List<List<String>> found = rows.stream().filter(r -> r.get(0).equals(label) && r.get(1).equals(size)).toList();
            long inJson = 0;
            for (JsonNode other : json.get("results")) {
                inJson += other.get("method").equals(result.get("method")) && other.get("relayBuffer").equals(result.get("relayBuffer"))
                        && other.get("size").equals(result.get("size")) ? 1 : 0;
            }
            assertThat(found).as("table rows for " + label + " " + size).hasSize((int) inJson);
            for (String why : List.of("skipped", "error")) {
                if (!result.get(why).isNull()) {
                    assertThat(found).as(label + " says why").allSatisfy(r -> assertThat(String.join(" ", r)).contains(result.get(why).asText()));
                }
            }
        }
    }

    /** An anchor names an element of the page; a relative link, a file beside it. */
    private static void linksResolve(Path page) {
        List<Map<String, Object>> links = script("""
                return [...document.querySelectorAll('a[href]')].map(a => ({href: a.getAttribute('href'), url: a.href,
                  target: a.getAttribute('href').startsWith('#') ? document.getElementById(decodeURIComponent(a.hash.slice(1))) !== null : null}));""");
        for (Map<String, Object> link : links) {
            String href = (String) link.get("href");
            if (href.startsWith("#")) {
                assertThat(link.get("target")).as("anchor " + href + " names an element").isEqualTo(true);
            } else if (URI.create(href).getScheme() == null) {
                Path target = Path.of(URI.create((String) link.get("url")).getPath());
                assertThat(target).as("relative link " + href + " from " + page).exists();
            }
        }
    }

    private static void noSidewaysScroll(int width) {
        Map<String, Object> sizes = script("""
                return {scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, inner: window.innerWidth};""");
        assertThat(((Number) sizes.get("inner")).intValue()).as("viewport width").isEqualTo(width);
        assertThat(((Number) sizes.get("scroll")).intValue()).as("page width at " + width + " px " + sizes)
                .isLessThanOrEqualTo(width + OVERFLOW_TOLERANCE);
    }

    @SuppressWarnings("unchecked")
    private static <T> T script(String js) {
        return (T) chromium.driver().executeScript(js);
    }
}
