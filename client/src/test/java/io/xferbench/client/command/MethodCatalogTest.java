package io.xferbench.client.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.netty.NettyTransport;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.protocol.ServerDescription;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --method all}: every method the server's model could run, those missing a capability included (they show as
 * skipped with the reason); not an event loop's own ways of sending on a threaded server, nor a TLS method on an
 * event-loop server, which that server refuses by design. Named, they are still asked for, and refused with the reason.
 */
class MethodCatalogTest {
    @TempDir
    Path dataDir;

    @Test
    void allLeavesOutWhatRunsOnlyOnOtherModelsAndSaysSo() throws Exception {
        MethodCatalog catalog = MethodCatalog.of(ProtocolJson.read("""
                {"server": "xferbench", "methods": [
                  {"direction": "download", "id": "transfer-to", "available": true, "unavailableReason": null},
                  {"direction": "download", "id": "io-uring", "available": false, "unavailableReason": "no io_uring"},
                  {"direction": "download", "id": "netty-auto", "available": false, "unavailableReason": "on threads",
                   "otherModels": "netty-epoll, netty-io-uring"}]}""".getBytes(StandardCharsets.UTF_8),
                ServerDescription.class), "download");
        assertThat(catalog.choose(List.of("all"))).containsExactly("transfer-to", "io-uring");
        assertThat(catalog.choose(List.of("netty-auto"))).containsExactly("netty-auto");
        assertThat(catalog.unavailableReason("netty-auto")).isEqualTo("on threads");
        assertThat(catalog.leftOutOfAll(List.of("all"))).isEqualTo(
                "--method all leaves out netty-auto: they run only on netty-epoll, netty-io-uring (name them to see the refusal)");
        assertThat(catalog.leftOutOfAll(List.of("transfer-to"))).isNull();
    }

    @Test
    void aThreadedServerMarksTheLoopMethodsAndAnEventLoopServerDoesNot() throws Exception {
        MethodAssumptions.assumeAvailable("netty-epoll", NettyTransport.EPOLL.availability());
        for (String model : List.of("platform", "netty-epoll")) {
            try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
                 XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                MethodCatalog catalog = MethodCatalog.of(ProtocolJson.read(c.control(Op.INFO), ServerDescription.class), "download");
                List<String> all = catalog.choose(List.of("all"));
                assertThat(all).as(model).contains("transfer-to", "mmap");
                if (model.equals("platform")) {
                    assertThat(all).as(model).doesNotContain("netty-auto", "loop-sendfile", "netty-buffer", "netty-file-region");
                    assertThat(catalog.otherModels().get("netty-auto")).contains("netty-epoll");
                    // A server started without --tls: --method all keeps tls-jdk, as a row skipped with the server's reason.
                    assertThat(all).as(model).contains("tls-jdk");
                    assertThat(catalog.unavailableReason("tls-jdk"))
                            .isEqualTo("tls-jdk: this server has no TLS certificate: start it with --tls or --tls-cert/--tls-key");
                } else {
                    assertThat(all).as(model).contains("netty-auto", "loop-sendfile", "netty-buffer", "netty-file-region");
                    // The one kind an event-loop server marks: TLS methods, which only the threaded models serve (docs/tls.md).
                    assertThat(all).as(model).doesNotContain("tls-jdk");
                    assertThat(catalog.otherModels()).containsOnlyKeys("tls-jdk");
                    assertThat(catalog.otherModels().get("tls-jdk")).contains("platform", "virtual+pool:N");
                }
            }
        }
    }
}
