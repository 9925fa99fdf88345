package io.xferbench.client.load.bench;

import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.ServerPlacement;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.NetworkLinks;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;

/** A load bench's settings as its report states them: what was asked, and the defaults taken for what was not. */
final class BenchSettings {
    private BenchSettings() {
    }

    static Map<String, Object> of(LoadBenchCommand bench, int loops, ServerPlacement placement) throws UnknownHostException {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("fileSize", Sizes.format(bench.fileSize));
        settings.put("xferbenchMethod", bench.method != null ? bench.method : LoadBenchCommand.defaultMethod()
                + " (event loops: " + LoadBenchCommand.LOOP_DEFAULT_METHOD + ")");
        settings.put("xferbenchIoModels", bench.ioModels);
        settings.put("threads", loops);
        settings.put(bench.requests > 0 ? "requests" : "duration", bench.requests > 0
                ? bench.requests + " (wrk: " + bench.duration.toMillis() + " ms)" : bench.duration.toMillis() + " ms");
        settings.put("operations", bench.ops.stream().map(LoadBenchCommand::name).toList());
        settings.put("uploadMethod", bench.uploadMethod);
        settings.put("warmup", bench.warmup.toMillis() + " ms");
        settings.put("jitSettle", bench.jitSettle.isZero() ? "off" : "at most " + bench.jitSettle.toMillis() + " ms per row, "
                + JitSettle.SLICE_NANOS / 1_000_000 + " ms slices, until the compiler threads take under "
                + Math.round(LoadReport.JIT_NOTED_SHARE * 100) + " % of the server's CPU in " + JitSettle.QUIET_SLICES + " in a row");
        if (bench.ioUringRingSize != null) {
            settings.put("ioUringRingSize", bench.ioUringRingSize);
        }
        settings.put("corkResponses", bench.corkResponses);
        settings.put("repeat", bench.repeat);
        if (bench.repeat > 1) {
            settings.put("repeatWarmup", bench.repeatWarmup().toMillis() + " ms");
        }
        settings.put("loop", "closed");
        settings.put("cache", "warm (the file is read before the window)");
        settings.put("serverAddress", placement.address());
        // The client's end of the path the load took (loopback, or veth with its MTU, qdisc and offloads).
        settings.put("network", NetworkLinks.towards(InetAddress.getByName(placement.address())).summary());
        if (!placement.launcher().isEmpty()) {
            settings.put("serverLauncher", String.join(" ", placement.launcher()));
        }
        return settings;
    }
}
