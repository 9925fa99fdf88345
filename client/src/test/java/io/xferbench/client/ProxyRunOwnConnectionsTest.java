package io.xferbench.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.proxy.ProxyConfig;
import io.xferbench.server.proxy.XferProxy;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code proxy} run alone: the proxy's window sees only this run's relayed connections (several kept-alive ones,
 * and a new one per exchange in the connect scenario), which the client recognises as its own, so no row is "shared".
 */
@Timeout(300)
class ProxyRunOwnConnectionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;
    @TempDir
    Path out;

    @Test
    void aRunAloneIsNeverShared() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferProxy proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy"))) {
            Path report = out.resolve("proxy.json");
            int exit = io.xferbench.core.cli.Cli.commandLine(new ClientMain()).execute("proxy", "--host", "127.0.0.1", "--port",
                    Integer.toString(proxy.port()), "--method", "copy", "--scenario", "small,connect,bulk", "--size", "64KiB",
                    "--exchanges", "20", "--connects", "10", "--bodies", "2", "--repeat", "2", "--concurrency", "2",
                    "--format", "json", "--out", report.toString());
            assertThat(exit).isZero();
            JsonNode results = JSON.readTree(report.toFile()).get("results");
            assertThat(results.size()).isEqualTo(3);
            for (JsonNode row : results) {
                assertThat(row.get("verified").asBoolean()).as(row.toString()).isTrue();
                assertThat(row.get("shared").asBoolean()).as(row.get("scenario").asText()).isFalse();
                assertThat(row.get("sharedWithConnections").asInt()).isZero();
            }
            assertThat(proxy.openMeasurementWindows()).isZero();
        }
    }
}
