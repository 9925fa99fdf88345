package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.method.Availability;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Prepared;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.nativeio.NativeSupport;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * PREPARE puts a file in its cache state before a timed DOWNLOAD; a DOWNLOAD without cache flags then does no cache
 * work at all (no eviction, no warming, no mincore) inside the transfer.
 */
@Timeout(120)
class PrepareTest {
    private static final long SIZE = 4 * Sizes.MiB;

    @TempDir
    static Path dataDir;
    static XferServer server;

    @BeforeAll
    static void start() throws Exception {
        server = XferServer.start(ServerConfig.loopback(dataDir));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static XferConnection connect() throws Exception {
        return XferConnection.open("127.0.0.1", server.port(), "");
    }

    private static void assumeNative() {
        MethodAssumptions.assumeAvailable("page cache control",
                NativeSupport.available() ? Availability.AVAILABLE : Availability.unavailable(NativeSupport.unavailableReason()));
    }

    @Test
    void prepareSetsTheCacheStateAndTheFlaglessDownloadLeavesItAlone() throws Exception {
        assumeNative();
        Request cold = Request.download("channel-direct", SIZE, Flags.VERIFY_CRC32C | Flags.CACHE_COLD, 0);
        try (XferConnection c = connect()) {
            Prepared evicted = c.prepare(cold);
            assertThat(evicted.residencyPermille()).as("evicted").isBetween(0, 50);
            assertThat(evicted.nanos()).isPositive();
            DownloadResult d = c.download(cold.withoutCacheFlags());
            assertThat(d.verified()).isTrue();
            assertThat(d.residencyBefore()).as("not measured inside the transfer").isEqualTo(-1);
            assertThat(d.residencyAfter()).isEqualTo(-1);
            Prepared look = c.prepare(cold.withoutCacheFlags());
            assertThat(look.residencyFoundPermille()).as("buffered reads filled the cache").isGreaterThanOrEqualTo(950);
            assertThat(look.residencyPermille()).as("no flags: only looked").isGreaterThanOrEqualTo(950);
            c.prepare(cold);
            Prepared warmed = c.prepare(Request.download("channel-direct", SIZE, Flags.CACHE_WARM, 0));
            assertThat(warmed.residencyFoundPermille()).isBetween(0, 50);
            assertThat(warmed.residencyPermille()).as("warmed").isGreaterThanOrEqualTo(950);
        }
    }

    @Test
    void aFlaglessDownloadMakesNoCacheSyscallsInTheWindow() throws Exception {
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        Request warm = Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C | Flags.CACHE_WARM, 0);
        try (XferConnection c = connect()) {
            c.prepare(warm);
            c.control(Op.MEASURE_BEGIN);
            for (int i = 0; i < 5; i++) {
                assertThat(c.download(warm.withoutCacheFlags()).verified()).isTrue();
            }
            SyscallCounts flagless = ProtocolJson.read(c.control(Op.MEASURE_END), MeasurementReport.class).syscalls();
            assertThat(flagless.of("mincore")).isZero();
            assertThat(flagless.of("fadvise64")).isZero();
            assertThat(flagless.of("sendfile64")).isPositive();

            c.control(Op.MEASURE_BEGIN);
            for (int i = 0; i < 5; i++) {
                c.download(warm);
            }
            SyscallCounts inline = ProtocolJson.read(c.control(Op.MEASURE_END), MeasurementReport.class).syscalls();
            if (NativeSupport.available()) {
                assertThat(inline.of("mincore")).as("cache flags on the DOWNLOAD: checked inline").isGreaterThanOrEqualTo(5);
            }
        }
    }

    @Test
    void aPrepareThatCannotBeServedIsAnsweredAndTheConnectionGoesOn() throws Exception {
        try (XferConnection c = connect()) {
            assertThatThrownBy(() -> c.prepare(new Request(Op.DOWNLOAD, "stream", "no-such-file", "", 0, 0, Flags.CACHE_WARM, 0)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
            assertThatThrownBy(() -> c.prepare(Request.download("stream", 1L << 50, Flags.CACHE_WARM, 0)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.TOO_LARGE));
            assertThat(c.prepare(Request.download("stream", 0, 0, 0)).nanos()).isPositive();
        }
    }
}
