package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PROXY frame asking for a relay buffer below what takes effect (a pipe of 1 byte is a page) is refused rather
 * than relayed under a buffer it does not have; the connection goes on.
 */
class ProxyRelayBufferTest {
    @TempDir
    Path dataDir;

    @Test
    void aPipeBufferBelowAPageIsRefused() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferProxy proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy"));
             XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            for (String relay : new String[] {"splice", "splice-pooled"}) {
                assertThatThrownBy(() -> c.proxy(relay, 1)).isInstanceOfSatisfying(RemoteException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                    assertThat(e.reason()).contains(relay + ": relay buffer 1 is below 4096");
                });
            }
            assertThat(c.proxy("copy", 1)).as("a 1-byte copy buffer is in effect as asked").isEqualTo("copy");
        }
    }
}
