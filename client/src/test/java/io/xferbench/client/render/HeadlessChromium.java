package io.xferbench.client.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.testing.MethodAssumptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's chromium, headless, driven through Debian's chromedriver: both given by path, so Selenium Manager (which
 * would look for, and download, a browser and a driver of its own) never runs; the constructor proves it from
 * Selenium's own log. A fresh profile in a temp directory; {@link #close()} ends the browser and the driver, checks
 * that no process of theirs is left and removes the profile.
 */
final class HeadlessChromium implements AutoCloseable {
    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    /** Held here: java.util.logging keeps loggers weakly, and a collected one would lose the handler. */
    private static final Logger MANAGER_LOG = Logger.getLogger("org.openqa.selenium.manager");
    private static final Logger FINDER_LOG = Logger.getLogger("org.openqa.selenium.remote.service.DriverFinder");
    /**
     * Warns that no selenium-devtools artifact matches the browser: none is wanted, the CDP commands used here go
     * through chromedriver.
     */
    private static final Logger CDP_VERSION_LOG = Logger.getLogger("org.openqa.selenium.devtools.CdpVersionFinder");

    private final Path profile;
    private final ChromeDriverService service;
    private final ChromeDriver driver;

    private HeadlessChromium(Path profile, ChromeDriverService service, ChromeDriver driver) {
        this.profile = profile;
        this.service = service;
        this.driver = driver;
    }

    /** Skips (fails under XFERBENCH_REQUIRE_ALL_METHODS=1) where Debian's chromium or chromedriver is not installed. */
    static HeadlessChromium start() throws IOException {
        List<String> missing = Stream.of(BROWSER, DRIVER).filter(p -> !Files.isExecutable(p)).map(Path::toString).toList();
        MethodAssumptions.assumeAvailable("the HTML report in a browser", missing.isEmpty(),
                String.join(" and ", missing) + " missing (apt-get install chromium chromium-driver)");
        CDP_VERSION_LOG.setLevel(Level.SEVERE);
        Path profile = Files.createTempDirectory("xferbench-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless=new", "--user-data-dir=" + profile, "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                // The page is a local file: nothing may go to the network, not even the browser's own housekeeping.
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps");
        if (root()) {
            // Chromium refuses to start its sandbox as root (CI runs as root); the page is our own local file.
            options.addArguments("--no-sandbox");
        }
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().withLogOutput(OutputStream.nullOutputStream()).build();

        Recorder manager = Recorder.on(MANAGER_LOG, Level.ALL);
        Recorder finder = Recorder.on(FINDER_LOG, Level.FINE);
        ChromeDriver driver;
        try {
            driver = new ChromeDriver(service, options);
        } catch (RuntimeException | Error e) {
            service.stop();
            delete(profile);
            throw e;
        } finally {
            manager.remove();
            finder.remove();
        }
        HeadlessChromium chromium = new HeadlessChromium(profile, service, driver);
        try {
            // Selenium Manager logs every run of its binary ("Executing Process: ..."): none here, and the finder said why.
            assertThat(manager.messages()).as("Selenium Manager must not run (it would download a driver or browser)").isEmpty();
            assertThat(finder.messages()).as("Selenium's DriverFinder")
                    .contains("Skipping Selenium Manager, path to chromedriver specified in Service class: " + DRIVER.toRealPath());
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(30));
        } catch (RuntimeException | Error e) {
            chromium.close();
            throw e;
        }
        return chromium;
    }

    ChromeDriver driver() {
        return driver;
    }

    /**
     * The viewport of a phone (mobile: the page's viewport meta applies, as on a real phone) or a desktop window, in
     * CSS pixels at scale 1.
     */
    void viewport(int width, int height, boolean mobile) {
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", mobile));
    }

    /** Opens a local file and returns once it has loaded. */
    void open(Path file) {
        driver.get(file.toUri().toString());
    }

    /** The browser's log since the last call: console messages and page errors. */
    List<LogEntry> consoleLog() {
        return driver.manage().logs().get(LogType.BROWSER).getAll();
    }

    /** A PNG of the whole page (not only the viewport) at the current width. */
    byte[] fullPageScreenshot() {
        Map<String, Object> metrics = driver.executeCdpCommand("Page.getLayoutMetrics", Map.of());
        @SuppressWarnings("unchecked")
        Map<String, Number> size = (Map<String, Number>) metrics.get("cssContentSize");
        Map<String, Object> clip = Map.of("x", 0, "y", 0, "width", size.get("width"), "height", size.get("height"), "scale", 1);
        Map<String, Object> shot = driver.executeCdpCommand("Page.captureScreenshot",
                Map.of("format", "png", "captureBeyondViewport", true, "clip", clip));
        return Base64.getDecoder().decode((String) shot.get("data"));
    }

    /** Quits the browser and the driver, removes the profile, and fails if a process of theirs is still there. */
    @Override
    public void close() throws IOException {
        try {
            driver.quit();
        } finally {
            service.stop();
            List<String> left = waitForLeftovers();
            delete(profile);
            assertThat(left).as("browser or driver processes left after quit").isEmpty();
        }
    }

    /** Processes whose command line names this profile (the browser's, reparented or not) or our driver, given a moment to exit. */
    private List<String> waitForLeftovers() {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            List<String> left = ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                    .map(c -> c.contains(profile.toString()) || isOurDriver(p, c)).orElse(false))
                    .map(p -> p.pid() + " " + p.info().commandLine().orElse("")).toList();
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return left;
            }
        }
    }

    private static boolean isOurDriver(ProcessHandle p, String commandLine) {
        return commandLine.startsWith(DRIVER.toString()) && p.parent().map(q -> q.pid() == ProcessHandle.current().pid()).orElse(false);
    }

    private static boolean root() throws IOException {
        return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The messages one java.util.logging logger publishes while attached. */
    private static final class Recorder extends Handler {
        private final Logger logger;
        private final Level before;
        private final List<String> messages = new ArrayList<>();

        private Recorder(Logger logger) {
            this.logger = logger;
            this.before = logger.getLevel();
        }

        static Recorder on(Logger logger, Level level) {
            Recorder r = new Recorder(logger);
            r.setLevel(Level.ALL);
            logger.setLevel(level);
            logger.addHandler(r);
            return r;
        }

        synchronized List<String> messages() {
            return List.copyOf(messages);
        }

        void remove() {
            logger.removeHandler(this);
            logger.setLevel(before);
        }

        @Override
        public synchronized void publish(LogRecord record) {
            messages.add(record.getParameters() == null ? record.getMessage()
                    : java.text.MessageFormat.format(record.getMessage(), record.getParameters()));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
