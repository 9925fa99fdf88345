package io.xferbench.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.ProcessMeasurement;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.HdrHistogram.Histogram;

/**
 * Drives downloads of one method and size: warm-up transfers (not measured), then {@code repeat} rounds of
 * {@code concurrency} simultaneous downloads on kept-alive connections, inside a server measurement window
 * (server CPU and syscalls) and a client CPU window. Every transfer is verified; one bad transfer fails the row.
 */
final class DownloadDriver {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RunSettings settings;
    private final Map<String, String> serverUnavailable;

    DownloadDriver(RunSettings settings, Map<String, String> serverUnavailable) {
        this.settings = settings;
        this.serverUnavailable = serverUnavailable;
    }

    MethodResult run(String method, long size) {
        if (serverUnavailable.containsKey(method)) {
            return MethodResult.skipped("download", method, size, serverUnavailable.get(method));
        }
        List<XferConnection> connections = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(settings.concurrency(), r -> {
            Thread t = new Thread(r, "xferbench-client");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int i = 0; i < settings.concurrency(); i++) {
                connections.add(XferConnection.open(settings.host(), settings.port(), settings.token()));
            }
            Request request = Request.download(method, size, settings.flags(), settings.bufferSize());
            for (int w = 0; w < settings.warmup(); w++) {
                round(pool, connections, request);
            }
            return measured(method, size, pool, connections, request);
        } catch (RemoteException e) {
            if (e.status() == Status.UNAVAILABLE) {
                return MethodResult.skipped("download", method, size, e.reason());
            }
            return MethodResult.failed("download", method, size, e.getMessage());
        } catch (IOException | RuntimeException e) {
            return MethodResult.failed("download", method, size, e.toString());
        } finally {
            pool.shutdownNow();
            for (XferConnection c : connections) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // Closing; the row is already decided.
                }
            }
        }
    }

    private MethodResult measured(String method, long size, ExecutorService pool, List<XferConnection> connections,
                                  Request request) throws IOException {
        Histogram latency = new Histogram(3);
        double[] rates = new double[settings.repeat()];
        long bytes = 0;
        int transfers = 0;
        int residencyBefore = Integer.MAX_VALUE;
        int residencyAfter = Integer.MAX_VALUE;
        long wallNanos = 0;
        String failure = null;

        XferConnection control = connections.get(0);
        control.control(Op.MEASURE_BEGIN);
        ProcessMeasurement.Result client;
        try (ProcessMeasurement clientWindow = ProcessMeasurement.begin(false)) {
            for (int r = 0; r < settings.repeat(); r++) {
                long start = System.nanoTime();
                List<DownloadResult> results = round(pool, connections, request);
                long nanos = System.nanoTime() - start;
                wallNanos += nanos;
                long roundBytes = 0;
                for (DownloadResult d : results) {
                    if (!d.verified() && failure == null) {
                        failure = "verification failed: " + d.failure();
                    }
                    roundBytes += d.bytes();
                    latency.recordValue(Math.max(1, d.clientNanos() / 1000));
                    residencyBefore = Math.min(residencyBefore, d.residencyBefore());
                    residencyAfter = Math.min(residencyAfter, d.residencyAfter());
                }
                bytes += roundBytes;
                transfers += results.size();
                rates[r] = Sizes.mib(roundBytes) / (nanos / 1e9);
            }
            client = clientWindow.end();
        }
        JsonNode server = JSON.readTree(control.control(Op.MEASURE_END));
        if (failure != null) {
            return MethodResult.failed("download", method, size, failure);
        }

        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        double gib = bytes / (double) Sizes.GiB;
        Map<String, Double> lat = new LinkedHashMap<>();
        lat.put("p50", latency.getValueAtPercentile(50) / 1000.0);
        lat.put("p99", latency.getValueAtPercentile(99) / 1000.0);
        lat.put("max", latency.getMaxValue() / 1000.0);

        JsonNode sys = server.get("syscalls");
        Map<String, Long> syscalls = null;
        Double perGiB = null;
        Long uring = null;
        if (sys != null && !sys.isNull()) {
            syscalls = new LinkedHashMap<>();
            var fields = sys.get("bySyscall").fields();
            while (fields.hasNext()) {
                var f = fields.next();
                if (f.getValue().asLong() > 0) {
                    syscalls.put(f.getKey(), f.getValue().asLong());
                }
            }
            long total = sys.get("total").asLong();
            long named = syscalls.values().stream().mapToLong(Long::longValue).sum();
            if (total > named) {
                syscalls.put("other", total - named);
            }
            perGiB = gib > 0 ? total / gib : null;
            uring = sys.get("ioUringSubmissions").asLong();
        }
        Map<String, Integer> residency = new LinkedHashMap<>();
        residency.put("beforeMin", residencyBefore);
        residency.put("afterMin", residencyAfter);
        return new MethodResult("download", method, size, bytes, transfers, wallNanos / 1e9,
                median(sorted), sorted[0], sorted[sorted.length - 1], Arrays.stream(rates).boxed().toList(), lat,
                cpu(client.usage().userSeconds(), client.usage().systemSeconds(), gib),
                cpu(server.get("cpuUserSeconds").asDouble(), server.get("cpuSystemSeconds").asDouble(), gib),
                syscalls, perGiB, uring, text(server.get("syscallsUnavailable")), residency, true, null, null);
    }

    /** One download on every connection at once. */
    private static List<DownloadResult> round(ExecutorService pool, List<XferConnection> connections, Request request) throws IOException {
        List<Future<DownloadResult>> futures = new ArrayList<>();
        for (XferConnection c : connections) {
            futures.add(pool.submit(() -> c.download(request)));
        }
        List<DownloadResult> results = new ArrayList<>();
        for (Future<DownloadResult> f : futures) {
            try {
                results.add(f.get());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IOException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        return results;
    }

    private static Map<String, Object> cpu(double user, double system, double gib) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("userSeconds", user);
        m.put("systemSeconds", system);
        m.put("userSecondsPerGiB", gib > 0 ? user / gib : null);
        m.put("systemSecondsPerGiB", gib > 0 ? system / gib : null);
        return m;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
