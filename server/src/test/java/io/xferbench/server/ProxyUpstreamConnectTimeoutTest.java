package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        List<Socket> queued = new ArrayList<>();
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort());
            boolean dropping = false;
            for (int i = 0; i < 64 && !dropping; i++) {
                Socket s = new Socket();
                queued.add(s);
                try {
                    s.connect(address, 300);
                } catch (SocketTimeoutException backlogFull) {
                    dropping = true;
                } catch (ConnectException refused) {
                    break; // net.ipv4.tcp_abort_on_overflow: a full queue refuses instead of dropping
                }
            }
            assumeTrue(dropping, "this kernel refuses or completes connects past a full accept queue (tcp_abort_on_overflow, no backlog limit): no unanswered connect to test against");
            ProxyConfig config = new ProxyConfig("127.0.0.1", 0, 16, "127.0.0.1", full.getLocalPort(), "copy", 64 * 1024,
                    Duration.ofSeconds(1), ServerConfig.DEFAULT_MAX_BUFFER_MEMORY);
            try (XferProxy proxy = XferProxy.start(config);
                 XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "", Duration.ofSeconds(50))) {
                long start = System.nanoTime();
                for (int attempt = 0; attempt < 2; attempt++) {
                    assertThatThrownBy(() -> c.proxy("copy", 0)).isInstanceOfSatisfying(RemoteException.class, e -> {
                        assertThat(e.status()).isEqualTo(Status.SERVER_ERROR);
                        assertThat(e.reason()).isEqualTo("proxy cannot reach upstream 127.0.0.1:" + full.getLocalPort()
                                + ": did not accept within 1s");
                    });
                }
                assertThat((System.nanoTime() - start) / 1e9).isBetween(1.8, 20.0);
            }
        } finally {
            for (Socket s : queued) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // Closing is all that is left.
                }
            }
        }
    }
}
