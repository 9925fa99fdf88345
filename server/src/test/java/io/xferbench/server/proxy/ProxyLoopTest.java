package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Wire;
import io.xferbench.core.testing.ProcessResources;
import io.xferbench.server.MalformedRequestStormTest;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two proxies relaying to each other (A -> B -> A ...): SelfLoop catches only a proxy pointed at itself, and such a
 * pair connected to each other until every slot was taken. A forwarded frame now counts its proxies (the request's
 * hops), and the proxy that would forward it past {@link Wire#MAX_PROXY_HOPS} answers it instead.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProxyLoopTest {
    private static final int ROUNDS = 5;

    @TempDir
    Path dataDir;

    @Test
    void twoProxiesPointedAtEachOtherAnswerTheClientAndKeepServing() throws Exception {
        int portA = freePort();
        try (XferProxy b = XferProxy.start(ProxyConfig.loopback(portA, "copy"));
             XferProxy a = XferProxy.start(new ProxyConfig("127.0.0.1", portA, 256, "127.0.0.1", b.port(), "copy", 65536,
                     Duration.ofSeconds(30), ServerConfig.DEFAULT_MAX_BUFFER_MEMORY))) {
            // One round first, so that classes and lazily made threads are in the baseline.
            loopRound(a);
            ProcessResources before = settled(a, b);
            for (int i = 0; i < ROUNDS; i++) {
                loopRound(a);
            }
            ProcessResources after = settled(a, b);
            assertThat(after.sockets()).as("sockets").isLessThanOrEqualTo(before.sockets());
            assertThat(after.fds()).as("fds").isLessThanOrEqualTo(before.fds());
            assertThat(after.threads()).as("threads").isLessThanOrEqualTo(before.threads());
            for (XferProxy p : new XferProxy[] {a, b}) {
                try (XferConnection c = XferConnection.open("127.0.0.1", p.port(), "")) {
                    assertThat(new String(c.proxySelf(Op.INFO), StandardCharsets.UTF_8)).as("the proxy still answers")
                            .contains("\"server\":\"xferbench-proxy\"");
                }
            }
        }
    }

    /**
     * The connection a loop ended on came through every proxy of it: a later request on it counts from there. The old
     * code counted each later frame (the client's own, hops 0) from 0 again, so every request on a kept connection sent
     * the loop round once more: 8 more connections and threads per request, until the client closed or the slots ran out.
     */
    @Test
    void laterRequestsOnTheConnectionALoopEndedOnDoNotGoRoundAgain() throws Exception {
        int portA = freePort();
        try (XferProxy b = XferProxy.start(ProxyConfig.loopback(portA, "copy"));
             XferProxy a = XferProxy.start(new ProxyConfig("127.0.0.1", portA, 256, "127.0.0.1", b.port(), "copy", 65536,
                     Duration.ofSeconds(30), ServerConfig.DEFAULT_MAX_BUFFER_MEMORY));
             XferConnection c = XferConnection.open("127.0.0.1", a.port(), "")) {
            assertLoopError(() -> c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)));
            // The answer came back through every relay, so every connection of the loop is open and counted.
            assertThat(a.activeConnections() + b.activeConnections()).as("the client's and the loop's connections")
                    .isEqualTo(Wire.MAX_PROXY_HOPS + 1);
            for (int i = 0; i < 3; i++) {
                assertLoopError(() -> c.stat("x"));
            }
            assertThat(a.activeConnections() + b.activeConnections()).as("connections after 3 more requests")
                    .isEqualTo(Wire.MAX_PROXY_HOPS + 1);
        }
    }

    /** The hop count does not get in the way of a chain that ends at a server: client -> A -> B -> server. */
    @Test
    void aChainOfProxiesToAServerStillRelaysEveryKindOfFrame() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferProxy b = XferProxy.start(ProxyConfig.loopback(server.port(), "copy"));
             XferProxy a = XferProxy.start(ProxyConfig.loopback(b.port(), "copy"))) {
            try (XferConnection c = XferConnection.open("127.0.0.1", a.port(), "")) {
                // A plain first frame: forwarded by A (1 hop) and by B (2 hops) to the server, which reads version 2.
                assertThat(c.download(Request.download("transfer-to", Sizes.MiB, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", a.port(), "")) {
                assertThat(c.proxy("copy", 0)).isEqualTo("copy");
                TestFile body = server.data().generated(Sizes.MiB);
                assertThat(c.upload(Request.upload("stream", "through-two.bin", Sizes.MiB, body.crc32c(), Flags.VERIFY_CRC32C, 0), body)
                        .verified()).isTrue();
            }
        }
    }

    /** A plain first frame, then a PROXY frame and a download relayed from it: both come back as the loop's error. */
    private static void loopRound(XferProxy a) throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", a.port(), "")) {
            assertLoopError(() -> c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)));
            // Answered by the last proxy, which keeps the connection: the error came through every relay intact.
            assertLoopError(() -> c.stat("x"));
        }
        try (XferConnection c = XferConnection.open("127.0.0.1", a.port(), "")) {
            assertThat(c.proxy("copy", 0)).isEqualTo("copy");
            assertLoopError(() -> c.control(Op.INFO));
        }
    }

    private static void assertLoopError(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.SERVER_ERROR))
                .hasMessageContaining("proxy loop? this request has passed " + Wire.MAX_PROXY_HOPS + " proxies");
    }

    private static ProcessResources settled(XferProxy a, XferProxy b) throws Exception {
        MalformedRequestStormTest.waitUntil(() -> a.activeConnections() == 0 && b.activeConnections() == 0
                && a.workerThreads() == 0 && b.workerThreads() == 0, "proxies idle, their connection threads gone");
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ProcessResources.sample();
    }

    /** A port no one listens on now, for the proxy that must be named before it starts. */
    private static int freePort() throws Exception {
        try (ServerSocketChannel s = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            return ((InetSocketAddress) s.getLocalAddress()).getPort();
        }
    }
}
