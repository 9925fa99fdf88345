package io.xferbench.client.load.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class WrkRunTest {
    static final String OUTPUT = """
            Running 5s test @ http://127.0.0.1:18080/xferbench-51200.dat
              2 threads and 500 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency     6.87ms    2.76ms  21.20ms   71.09%
                Req/Sec    25.51k     2.05k   30.10k    70.00%
              Latency Distribution
                 50%  650.00us
                 75%    8.00ms
                 90%   10.10ms
                 99%    1.20s
              253000 requests in 5.00s, 12.06GB read
              Socket errors: connect 0, read 3, write 0, timeout 2
              Non-2xx or 3xx responses: 1000
            Requests/sec:  50600.00
            Transfer/sec:      2.41GB
            """;

    @Test
    void parsesCountsPercentilesAndErrors() throws Exception {
        LoadResult r = WrkRun.parse(OUTPUT, 500, 2, 2_530_000);
        assertThat(r.requests()).isEqualTo(252_000);
        assertThat(r.seconds()).isEqualTo(5.0);
        assertThat(r.requestsPerSecond()).isCloseTo(50_400, within(0.5));
        assertThat(r.latency().p50()).isCloseTo(0.65, within(1e-9));
        assertThat(r.latency().p90()).isCloseTo(10.1, within(1e-9));
        assertThat(r.latency().p99()).isCloseTo(1200, within(1e-9));
        assertThat(r.errors()).containsEntry("socket read", 3L).containsEntry("socket timeout", 2L)
                .containsEntry("http non-2xx", 1000L).doesNotContainKey("socket connect");
        assertThat(r.clientCpuMicrosPerRequest()).isCloseTo(10.0, within(1e-9));
        assertThat(r.verified()).isFalse();
    }

    @Test
    void outputWithoutACountIsAnError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WrkRun.parse("unable to connect", 1, 1, 0))
                .hasMessageContaining("no request count");
    }

    @Test
    void runsAgainstNginxAndCountsItsOwnCpu(@TempDir Path dataDir) throws Exception {
        var wrk = WrkRun.binary();
        MethodAssumptions.assumeAvailable("wrk", wrk.isPresent() ? Availability.AVAILABLE : Availability.unavailable(WrkRun.missingReason()));
        var nginx = NginxProcess.binary();
        MethodAssumptions.assumeAvailable("nginx", nginx.isPresent() ? Availability.AVAILABLE
                : Availability.unavailable(NginxProcess.missingReason()));
        NginxProcess.makeServable(dataDir);
        ByteBuffer body = ByteBuffer.allocate(4096);
        new ContentGenerator(DataDirectory.SEED).fill(body, 0);
        Files.write(dataDir.resolve(DataDirectory.generatedName(4096)), body.array());
        try (NginxProcess n = NginxProcess.start(nginx.get(), dataDir, NginxProcess.Design.SENDFILE, 16)) {
            LoadResult r = WrkRun.run(wrk.get(), n.httpUrl(4096), 4, 1, Duration.ofSeconds(1), () -> { }, () -> { });
            assertThat(r.requests()).isPositive();
            assertThat(r.errors()).isEmpty();
            assertThat(r.clientCpuMicrosPerRequest()).isPositive();
        }
    }
}
