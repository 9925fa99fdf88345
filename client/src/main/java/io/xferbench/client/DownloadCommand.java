package io.xferbench.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.EnvironmentInfo;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Download (file → socket on the server) with one or more methods; prints one row per method and size. */
@Command(name = "download", mixinStandardHelpOptions = true,
        description = "Download generated test files with each method, verify every transfer, report throughput, latency, CPU and syscalls.")
final class DownloadCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    ServerOptions server;

    @Option(names = "--method", defaultValue = "all", split = ",", description = "Method ids, comma-separated, or 'all' (default).")
    List<String> methods;

    @Option(names = "--size", defaultValue = "256MiB", split = ",", description = "File sizes, e.g. 0,4095,1MiB+1,1GiB (default: ${DEFAULT-VALUE}).")
    List<String> sizes;

    @Option(names = "--repeat", defaultValue = "5", description = "Measured rounds per method and size (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--warmup", defaultValue = "1", description = "Unmeasured rounds first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--concurrency", defaultValue = "1", description = "Simultaneous connections per round (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--verify", defaultValue = "crc32c", description = "crc32c (byte count and checksum) or length (byte count only) (default: ${DEFAULT-VALUE}).")
    String verify;

    @Option(names = "--cache", defaultValue = "warm", description = "warm: file read into the page cache first; cold: evicted before every transfer (default: ${DEFAULT-VALUE}).")
    String cache;

    @Option(names = "--buffer", defaultValue = "64KiB", description = "User-space buffer of the copying methods (default: ${DEFAULT-VALUE}).")
    String buffer;

    @Option(names = "--unaligned", description = "Give channel-direct a buffer at page + 16 to show the misalignment penalty.")
    boolean unaligned;

    @Option(names = "--no-syscalls", description = "Do not count server syscalls with perf.")
    boolean noSyscalls;

    @Option(names = "--format", defaultValue = "table", description = "table, json or csv (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--out", description = "Write the report here instead of standard output.")
    Path out;

    @Option(names = "--chart", description = "Also draw a PNG bar chart of MiB/s per method here.")
    Path chart;

    @Override
    public Integer call() throws Exception {
        if (!verify.equals("crc32c") && !verify.equals("length")) {
            throw new IllegalArgumentException("--verify must be crc32c or length");
        }
        if (!cache.equals("warm") && !cache.equals("cold")) {
            throw new IllegalArgumentException("--cache must be warm or cold");
        }
        if (repeat < 1 || concurrency < 1 || warmup < 0) {
            throw new IllegalArgumentException("--repeat and --concurrency must be >= 1, --warmup >= 0");
        }
        JsonNode info;
        try (XferConnection c = XferConnection.open(server.host, server.port, server.token)) {
            info = JSON.readTree(c.control(Op.INFO));
        }
        List<String> known = new ArrayList<>();
        Map<String, String> unavailable = new LinkedHashMap<>();
        for (JsonNode m : info.get("methods")) {
            if (!"download".equals(m.get("direction").asText())) {
                continue;
            }
            known.add(m.get("id").asText());
            if (!m.get("available").asBoolean()) {
                unavailable.put(m.get("id").asText(), m.get("unavailableReason").asText());
            }
        }
        List<String> chosen = methods.size() == 1 && methods.get(0).equals("all") ? known : methods;
        for (String m : chosen) {
            if (!known.contains(m)) {
                throw new IllegalArgumentException("unknown method '" + m + "'; the server knows: " + String.join(", ", known));
            }
        }
        List<Long> parsedSizes = sizes.stream().map(Sizes::parse).toList();
        RunSettings settings = new RunSettings(server.host, server.port, server.token, chosen, parsedSizes, repeat, warmup,
                concurrency, verify.equals("crc32c"), cache, (int) Sizes.parse(buffer), unaligned, !noSyscalls);

        DownloadDriver driver = new DownloadDriver(settings, unavailable);
        List<MethodResult> results = new ArrayList<>();
        for (long size : parsedSizes) {
            for (String method : chosen) {
                System.err.println("xferbench: download " + method + " " + Sizes.format(size) + " ...");
                results.add(driver.run(method, size));
            }
        }
        Map<String, Object> environment = new LinkedHashMap<>();
        environment.put("settings", settings.describe());
        environment.put("client", EnvironmentInfo.describe(null));
        environment.put("server", JSON.convertValue(info.get("environment"), Map.class));
        Report report = new Report(environment, results);
        String text = ReportWriter.render(report, format);
        if (out != null) {
            Files.writeString(out, text, StandardCharsets.UTF_8);
            System.err.println("xferbench: report written to " + out);
        } else {
            System.out.print(text);
        }
        if (chart != null) {
            ResultsChart.write(report, chart);
            System.err.println("xferbench: chart written to " + chart);
        }
        if (report.anyFailed()) {
            System.err.println("xferbench: FAILED rows: " + Arrays.toString(results.stream().filter(r -> r.error() != null).map(MethodResult::method).toArray()));
            return 1;
        }
        return 0;
    }
}
