package io.xferbench.client.load.target;

import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.nativeio.NativeException;
import io.xferbench.nativeio.ResourceUsage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * wrk, the independent load generator, run as a child against an HTTP URL: its own numbers next to ours, so a
 * reader can see the Java generator is not what limits a row. wrk checks status codes, not bodies. Its CPU is
 * the child's rusage (RUSAGE_CHILDREN across the wait), with nothing else reaped in between.
 */
public final class WrkRun {
    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m)");
    private static final Pattern PERCENTILE = Pattern.compile("^\\s*(50|90|99)(?:\\.000)?%\\s+([\\d.]+)(us|ms|s)\\s*$", Pattern.MULTILINE);
    private static final Pattern SOCKET_ERRORS = Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    private WrkRun() {
    }

    public static Optional<Path> binary() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .filter(d -> !d.isEmpty()).map(d -> Path.of(d, "wrk")).filter(Files::isExecutable).findFirst();
    }

    public static String missingReason() {
        return "wrk is not installed (apt-get install wrk)";
    }

    /** Runs {@code wrk} once for {@code duration}; the returned figures cover that whole run. */
    public static LoadResult run(Path wrk, String url, int connections, int threads, Duration duration, Runnable opened,
                          Runnable closed) throws IOException, InterruptedException {
        int t = Math.min(threads, connections);
        long seconds = Math.max(1, duration.toSeconds());
        Process p = new ProcessBuilder(wrk.toString(), "-t" + t, "-c" + connections, "-d" + seconds + "s", "--latency", url)
                .redirectErrorStream(true).start();
        ResourceUsage before = children();
        opened.run();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        closed.run();
        ResourceUsage cpu = children().minus(before);
        if (exit != 0) {
            throw new IOException("wrk exited with " + exit + ": " + out.strip());
        }
        return parse(out, connections, t, (cpu.userMicros() + cpu.systemMicros()));
    }

    static LoadResult parse(String out, int connections, int threads, double cpuMicros) throws IOException {
        Matcher m = REQUESTS.matcher(out);
        if (!m.find()) {
            throw new IOException("no request count in wrk's output: " + out.strip());
        }
        long total = Long.parseLong(m.group(1));
        double seconds = toMillis(Double.parseDouble(m.group(2)), m.group(3)) / 1000;
        Map<String, Double> pct = new TreeMap<>();
        Matcher pm = PERCENTILE.matcher(out);
        while (pm.find()) {
            pct.put(pm.group(1), toMillis(Double.parseDouble(pm.group(2)), pm.group(3)));
        }
        Map<String, Long> errors = new TreeMap<>();
        Matcher se = SOCKET_ERRORS.matcher(out);
        if (se.find()) {
            String[] kinds = {"connect", "read", "write", "timeout"};
            for (int i = 0; i < kinds.length; i++) {
                long n = Long.parseLong(se.group(i + 1));
                if (n > 0) {
                    errors.put("socket " + kinds[i], n);
                }
            }
        }
        Matcher bad = NON_2XX.matcher(out);
        long non2xx = bad.find() ? Long.parseLong(bad.group(1)) : 0;
        if (non2xx > 0) {
            errors.put("http non-2xx", non2xx);
        }
        long ok = Math.max(0, total - non2xx);
        return new LoadResult(connections, threads, 0, ok, errors, 0, seconds, seconds > 0 ? ok / seconds : 0, Double.NaN,
                new LoadResult.LatencySummary(pct.getOrDefault("50", Double.NaN), pct.getOrDefault("90", Double.NaN),
                        pct.getOrDefault("99", Double.NaN), Double.NaN, Double.NaN),
                total > 0 ? cpuMicros / total : Double.NaN, Double.NaN, Map.of());
    }

    private static double toMillis(double v, String unit) {
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "us" -> v / 1000;
            case "ms" -> v;
            case "s" -> v * 1000;
            case "m" -> v * 60_000;
            default -> throw new IllegalArgumentException(unit);
        };
    }

    private static ResourceUsage children() throws IOException {
        try {
            return ResourceUsage.children();
        } catch (NativeException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
