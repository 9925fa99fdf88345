package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.testing.UnansweredListener;
import io.xferbench.server.config.ServerConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An upstream whose SYNs go unanswered (a black-holed host; here a listener whose accept queue is full, so Linux drops
 * them): the proxy tells the client within its --idle-timeout that it cannot reach the upstream, where the old code held
 * the connection's thread and slot for the kernel's SYN retries (about two minutes) and the client's own timeout spoke
 * first, blaming the proxy.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyUpstreamConnectTimeoutTest {
    @Test
    void anUpstreamThatNeverAcceptsIsReportedWithinTheIdleTimeout() throws Exception {
        try (UnansweredListener full = new UnansweredListener()) {
            MethodAssumptions.assumeAvailable("an upstream that drops SYNs", full.dropsSyns(), UnansweredListener.SKIP_REASON);
            ProxyConfig config = new ProxyConfig("127.0.0.1", 0, 16, "127.0.0.1", full.port(), "copy", 64 * 1024,
                    Duration.ofSeconds(1), ServerConfig.DEFAULT_MAX_BUFFER_MEMORY);
            try (XferProxy proxy = XferProxy.start(config);
                 XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "", Duration.ofSeconds(50))) {
                long start = System.nanoTime();
                for (int attempt = 0; attempt < 2; attempt++) {
                    assertThatThrownBy(() -> c.proxy("copy", 0)).isInstanceOfSatisfying(RemoteException.class, e -> {
                        assertThat(e.status()).isEqualTo(Status.SERVER_ERROR);
                        assertThat(e.reason()).isEqualTo("proxy cannot reach upstream 127.0.0.1:" + full.port()
                                + ": did not accept within 1s");
                    });
                }
                assertThat((System.nanoTime() - start) / 1e9).isBetween(1.8, 20.0);
            }
        }
    }
}
