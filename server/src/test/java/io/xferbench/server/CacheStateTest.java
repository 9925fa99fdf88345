package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.method.Availability;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --cache cold / warm as the server reports them, measured with mincore before and after each transfer. */
class CacheStateTest {
    @TempDir
    Path dataDir;

    @Test
    void coldEvictsWarmLoadsAndODirectLeavesTheCacheAlone() throws Exception {
        MethodAssumptions.assumeAvailable("page cache control",
                NativeSupport.available() ? Availability.AVAILABLE : Availability.unavailable(NativeSupport.unavailableReason()));
        long size = 16 * Sizes.MiB;
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            DownloadResult cold = c.download(Request.download("direct-io", size, Flags.VERIFY_CRC32C | Flags.CACHE_COLD, 0));
            assertThat(cold.verified()).isTrue();
            assertThat(cold.residencyBefore()).as("evicted before").isBetween(0, 50);
            assertThat(cold.residencyAfter()).as("O_DIRECT bypasses the cache").isBetween(0, 50);

            DownloadResult buffered = c.download(Request.download("channel-direct", size, Flags.VERIFY_CRC32C | Flags.CACHE_COLD, 0));
            assertThat(buffered.residencyBefore()).isBetween(0, 50);
            assertThat(buffered.residencyAfter()).as("buffered reads fill the cache").isGreaterThanOrEqualTo(950);

            c.download(Request.download("transfer-to", size, Flags.CACHE_COLD, 0));
            DownloadResult warm = c.download(Request.download("transfer-to", size, Flags.VERIFY_CRC32C | Flags.CACHE_WARM, 0));
            assertThat(warm.residencyBefore()).as("warmed before").isGreaterThanOrEqualTo(950);
        }
    }
}
