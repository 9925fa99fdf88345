package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy answers INFO / MEASURE_BEGIN / MEASURE_END about itself when asked with {@link Request#PROXY_SELF}
 * before any PROXY frame, and the window counts what its relays do: the small-exchange scenario of the client's
 * {@code proxy} command at the XferConnection level.
 */
@Timeout(120)
class ProxySelfMeasurementTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int EXCHANGES = 200;

    @TempDir
    static Path serverDir;
    static XferServer server;
    static XferProxy proxy;

    @BeforeAll
    static void start() throws Exception {
        server = XferServer.start(ServerConfig.loopback(serverDir));
        proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy"));
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        server.close();
    }

    @Test
    void selfInfoDescribesTheProxyAndPlainInfoStillReachesTheUpstream() throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            JsonNode info = JSON.readTree(c.proxySelf(Op.INFO));
            assertThat(info.get("server").asText()).isEqualTo("xferbench-proxy");
            assertThat(info.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
            assertThat(info.get("upstream").asText()).isEqualTo("127.0.0.1:" + server.port());
            assertThat(StreamSupport.stream(info.get("methods").spliterator(), false).map(m -> m.get("id").asText()).toList())
                    .containsExactlyElementsOf(RelayMethods.ids());
            // Still the proxy's: the same connection may go on to be relayed.
            assertThat(c.proxy("copy", 0)).isEqualTo("copy");
            assertThat(JSON.readTree(c.control(Op.INFO)).get("server").asText()).isEqualTo("xferbench");
        }
        try (XferConnection plain = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            assertThat(JSON.readTree(plain.control(Op.INFO)).get("server").asText()).isEqualTo("xferbench");
        }
    }

    @Test
    void anEndWithoutABeginIsRefusedAndTheConnectionGoesOn() throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            assertThatThrownBy(() -> c.proxySelf(Op.MEASURE_END)).isInstanceOfSatisfying(RemoteException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST));
            assertThat(JSON.readTree(c.proxySelf(Op.INFO)).get("server").asText()).isEqualTo("xferbench-proxy");
        }
    }

    /**
     * Empty-body exchanges through the splice relay: each costs the proxy at least two splice(2) calls for the
     * request and two for the answer, and the window sees them; through the copy relay it sees no splice.
     */
    @Test
    void theWindowCountsTheRelaysSyscalls() throws Exception {
        MethodAssumptions.assumeAvailable("splice", RelayMethods.byId("splice").orElseThrow().availability());
        boolean perf = PerfSyscallCounter.availability().isAvailable();
        JsonNode spliced = window("splice");
        JsonNode copied = window("copy");
        for (JsonNode w : new JsonNode[] {spliced, copied}) {
            assertThat(w.get("process").asText()).isEqualTo("proxy");
            assertThat(w.get("cpuUserSeconds").asDouble() + w.get("cpuSystemSeconds").asDouble()).isPositive();
        }
        if (!perf) {
            assertThat(spliced.get("syscalls").isNull()).isTrue();
            assertThat(spliced.get("syscallsUnavailable").asText()).isNotEmpty();
            return;
        }
        assertThat(spliced.get("syscalls").get("bySyscall").get("splice").asLong()).isGreaterThanOrEqualTo(4L * EXCHANGES);
        assertThat(copied.get("syscalls").get("bySyscall").get("splice").asLong()).isLessThan(EXCHANGES / 10);
        assertThat(copied.get("syscalls").get("total").asLong()).isGreaterThanOrEqualTo(4L * EXCHANGES);
    }

    private static JsonNode window(String relay) throws Exception {
        try (XferConnection control = XferConnection.open("127.0.0.1", proxy.port(), "");
             XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            assertThat(c.proxy(relay, 0)).isEqualTo(relay);
            c.download(Request.download("transfer-to", 0, Flags.VERIFY_CRC32C, 0)); // generates the file
            control.proxySelf(Op.MEASURE_BEGIN);
            for (int i = 0; i < EXCHANGES; i++) {
                assertThat(c.download(Request.download("transfer-to", 0, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
            return JSON.readTree(control.proxySelf(Op.MEASURE_END));
        }
    }
}
