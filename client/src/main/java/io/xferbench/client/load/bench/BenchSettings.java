package io.xferbench.client.load.bench;

import io.xferbench.client.load.report.LoadReport;
import io.xferbench.client.load.report.LoadSettings;
import io.xferbench.client.load.target.JitSettle;
import io.xferbench.client.load.target.ServerPlacement;
import io.xferbench.core.Sizes;
import io.xferbench.core.metrics.NetworkLinks;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** A load bench's settings as its report states them: what was asked, and the defaults taken for what was not. */
final class BenchSettings {
    private BenchSettings() {
    }

    static LoadSettings of(LoadBenchCommand bench, int loops, ServerPlacement placement) throws UnknownHostException {
        return new LoadSettings.Bench(Sizes.format(bench.fileSize), bench.method != null ? bench.method
                        : LoadBenchCommand.defaultMethod() + " (event loops: " + LoadBenchCommand.LOOP_DEFAULT_METHOD + ")",
                bench.ioModels, loops,
                bench.requests > 0 ? bench.requests + " (wrk: " + bench.duration.toMillis() + " ms)" : null,
                bench.requests > 0 ? null : bench.duration.toMillis() + " ms",
                bench.ops.stream().map(LoadBenchCommand::name).toList(), bench.uploadMethod, bench.warmup.toMillis() + " ms",
                bench.jitSettle.isZero() ? "off" : "at most " + bench.jitSettle.toMillis() + " ms per row, "
                        + JitSettle.SLICE_NANOS / 1_000_000 + " ms slices, until the compiler threads take under "
                        + Math.round(LoadReport.JIT_NOTED_SHARE * 100) + " % of the server's CPU in " + JitSettle.QUIET_SLICES + " in a row",
                bench.ioUringRingSize, bench.corkResponses, bench.repeat, bench.repeat > 1 ? bench.repeatWarmup().toMillis() + " ms" : null,
                "closed", "warm (the file is read before the window)", placement.address(),
                // The client's end of the path the load took (loopback, or veth with its MTU, qdisc and offloads).
                NetworkLinks.towards(InetAddress.getByName(placement.address())).summary(),
                placement.launcher().isEmpty() ? null : String.join(" ", placement.launcher()));
    }
}
