package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A real server on loopback; every download method at the sizes where off-by-one and block bugs live. */
class DownloadIntegrationTest {
    private static final long[] SIZES = {0, 1, 4095, 4096, Sizes.MiB + 1, 64 * Sizes.MiB};

    @TempDir
    static Path dataDir;
    static XferServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = XferServer.start(ServerConfig.loopback(dataDir));
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    static Stream<Arguments> methodsAndSizes() {
        // The threaded server this test runs refuses the event loops' own methods (ModelRunsMethodAskedTest).
        // TLS methods need the client's TLS session: TlsDownloadTest and ModelRunsMethodAskedTest serve them.
        return DownloadMethods.blocking().stream().filter(m -> !m.traits().tls())
                .flatMap(m -> Stream.of(SIZES).flatMapToLong(java.util.Arrays::stream).mapToObj(s -> Arguments.of(m.id(), s)));
    }

    @ParameterizedTest(name = "{0} {1} bytes")
    @MethodSource("methodsAndSizes")
    void everyMethodDeliversTheExactBytes(String id, long size) throws Exception {
        SenderMethod method = DownloadMethods.byId(id).orElseThrow();
        MethodAssumptions.assumeAvailable(id, method.availability());
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            // Twice on one connection: the second reuses the connection's sender (buffers, adopted Netty channel).
            for (int i = 0; i < 2; i++) {
                DownloadResult r = c.download(Request.download(id, size, Flags.VERIFY_CRC32C, 0));
                assertThat(r.failure()).as(id + " " + size).isNull();
                assertThat(r.bytes()).isEqualTo(size);
                assertThat(r.checksummed()).isTrue();
                assertThat(r.verified()).isTrue();
            }
        }
    }
}
