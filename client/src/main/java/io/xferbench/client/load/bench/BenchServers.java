package io.xferbench.client.load.bench;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.target.LoadTarget;
import io.xferbench.client.load.target.NginxProcess;
import io.xferbench.client.load.target.ServerPlacement;
import io.xferbench.client.load.target.XferServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Starts the servers a load bench measures: an xferbench server per I/O model, then nginx's designs where installed. */
final class BenchServers {
    private BenchServers() {
    }

    /**
     * Adds each server to {@code targets} as soon as it runs, so that the caller stops every one that started whatever
     * failed after it.
     *
     * @return nginx, empty when it is not installed (its rows are skipped)
     */
    static Optional<Path> start(LoadBenchCommand bench, Path dataDir, ServerPlacement placement, int crc, List<LoadTarget> targets)
            throws IOException, InterruptedException {
        // Unasked, each model runs its own default: the threaded ones DEFAULT_METHOD, the event loops LOOP_DEFAULT_METHOD.
        String asked = bench.method;
        int maxConnections = bench.concurrency.stream().mapToInt(Integer::intValue).max().orElse(1) + 64;
        NginxProcess.makeServable(dataDir);
        for (String model : bench.ioModels) {
            XferServerProcess xfer = XferServerProcess.start(bench.serverJar, dataDir, maxConnections,
                    LoadBenchCommand.methodFor(asked, model), model, placement, bench.serverOptions());
            targets.add(xfer);
            // The first download makes the server generate the file (and its checksum record) nginx serves too.
            LoadEngine.run(LoadBenchCommand.plan(xfer.address(), 1, 1, Duration.ZERO, 1, bench.duration),
                    xfer.downloads(bench.fileSize, crc).get("native"));
        }
        Optional<Path> nginx = NginxProcess.binary();
        for (NginxProcess.Design design : NginxProcess.designs()) {
            if (nginx.isPresent()) {
                targets.add(NginxProcess.start(nginx.get(), dataDir, design, maxConnections, placement));
            }
        }
        return nginx;
    }
}
