package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A native DOWNLOAD costs the thread models one read(2) for its request, where exact-size reads took two (the prefix,
 * then the rest). Counted by perf in a server process of its own, so the client's reads are not in the count, on the
 * {@code platform} model: its blocking read is one call per request, where a virtual thread's non-blocking socket
 * adds a read that finds nothing whenever the request is not there yet, a count that depends on timing.
 */
@Timeout(120)
class OneReadPerRequestTest {
    private static final int DOWNLOADS = 20;
    private static final long SIZE = 4096;

    @TempDir
    Path dataDir;

    @Test
    void aDownloadRequestIsOneRead() throws Exception {
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        Request download = Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0);
        try (ServerProcess server = ServerProcess.start(dataDir, "--io-model", "platform");
             XferConnection c = XferConnection.open("127.0.0.1", server.port, "")) {
            // Generates the file, starts the connection's thread and loads the classes of the path before perf attaches.
            for (int i = 0; i < 3; i++) {
                assertThat(c.download(download).verified()).isTrue();
            }
            SyscallCounts counts;
            try (PerfSyscallCounter perf = PerfSyscallCounter.attach(server.process.pid(), List.of("read", "sendfile64"))) {
                perf.enable();
                for (int i = 0; i < DOWNLOADS; i++) {
                    assertThat(c.download(download).verified()).isTrue();
                }
                perf.disable();
                counts = perf.stop();
            }
            assertThat(counts.of("sendfile64")).as("the downloads were counted").isGreaterThanOrEqualTo(DOWNLOADS);
            // The server's thread may already sit in the read(2) of the first request when perf enables: a syscall entered
            // before the window is not counted, so 19 is as right as 20. Two reads per request gave 39-40.
            assertThat(counts.of("read")).as("reads for " + DOWNLOADS + " download requests").isBetween(DOWNLOADS - 1L, (long) DOWNLOADS);
        }
    }
}
