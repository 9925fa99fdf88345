package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.cli.Cli;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.nativeio.PageCache;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measuring must not change what is measured: after a {@code --cache cold} run the file stays as the last transfer
 * left it, and the row's "after" residency says the same as mincore does a moment later.
 */
class ColdCacheLeftAloneTest {
    @TempDir
    Path dataDir;

    @TempDir
    Path out;

    @Test
    void theResidencyReadAfterTheLastRoundDoesNotEvictTheFileAgain() throws Exception {
        MethodAssumptions.assumeAvailable("page cache control",
                NativeSupport.available() ? Availability.AVAILABLE : Availability.unavailable(NativeSupport.unavailableReason()));
        long size = 8 * Sizes.MiB;
        Path report = out.resolve("run.json");
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            TestFile file = server.data().generated(size);
            int exit = Cli.commandLine(new ClientMain()).execute("download", "--host", "127.0.0.1", "--port",
                    Integer.toString(server.port()), "--method", "channel-direct", "--size", Long.toString(size),
                    "--cache", "cold", "--repeat", "2", "--warmup", "0", "--quiet", "--format", "json", "--out",
                    report.toString());
            assertThat(exit).isZero();
            JsonNode row = new ObjectMapper().readTree(report.toFile()).at("/results/0");
            // A buffered read fills the cache; the last PREPARE used to evict it once more while reading this.
            assertThat(row.at("/residencyPermille/afterMin").asInt()).as("the row's after: %s", row).isGreaterThanOrEqualTo(950);
            assertThat(PageCache.residency(file.path()).permille()).as("mincore after the run").isGreaterThanOrEqualTo(950);
        }
    }
}
