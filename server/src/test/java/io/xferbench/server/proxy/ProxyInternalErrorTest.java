package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.method.Relay;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.CapturedLog;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy's own failures, as the server's: a RuntimeException or an Error while a first frame is handled is
 * answered SERVER_ERROR (one line) and logged naming the proxy, the client and the request; once the relay has
 * started the connection closes; the proxy serves the next client either way. A first frame it cannot read is
 * answered BAD_REQUEST before the close. The old proxy answered neither (it closed the client before answering),
 * logged a RuntimeException without client or request, and let an Error end the connection's thread unlogged.
 * The failures are thrown by wrappers around the proxy's upstream connector and relay factory.
 */
@Timeout(120)
class ProxyInternalErrorTest {
    private static final String BOOM = "boom.dat";
    private static final List<Function<String, Throwable>> KINDS = List.of(IllegalStateException::new, NoClassDefFoundError::new);

    /** Where a failure is thrown: connecting upstream (a first frame's handling), building the relay, relaying. */
    private enum Point { CONNECT, NEW_RELAY, RELAY }

    private record Fault(Point point, Throwable thrown) {
    }

    @TempDir
    Path dataDir;

    private CapturedLog log;
    private XferServer server;
    private XferProxy proxy;
    private volatile Fault fault;

    @BeforeEach
    void start() throws Exception {
        log = CapturedLog.of("io.xferbench.server", Level.FINE);
        Files.write(dataDir.resolve(BOOM), new byte[64 * 1024]);
        Files.write(dataDir.resolve("ok.dat"), new byte[64 * 1024]);
        server = XferServer.start(ServerConfig.loopback(dataDir));
        proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy"), this::connect, this::newRelay);
    }

    @AfterEach
    void stop() throws Exception {
        fault = null;
        proxy.close();
        server.close();
        log.close();
    }

    @Test
    void aFailureBeforeTheRelayIsAnsweredAndLoggedAndTheProxyGoesOn() throws Exception {
        int round = 0;
        for (Function<String, Throwable> kind : KINDS) {
            for (boolean proxyFrame : new boolean[] {false, true}) {
                String token = "injected-" + (round++);
                failAt(Point.CONNECT, kind.apply(token));
                String what = kind.apply(token).getClass().getSimpleName() + (proxyFrame ? " PROXY frame" : " plain");
                try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "", Duration.ofSeconds(30))) {
                    assertThatThrownBy(() -> {
                        if (proxyFrame) {
                            c.proxy("copy", 0);
                        } else {
                            c.download(download(BOOM));
                        }
                    }).as(what).isInstanceOfSatisfying(RemoteException.class, e -> {
                        assertThat(e.status()).as(what).isEqualTo(Status.SERVER_ERROR);
                        assertThat(e.getMessage()).as(what).contains("internal error", token).doesNotContain("\n");
                    });
                }
                fault = null;
                assertLogged(proxyFrame ? "PROXY " : "DOWNLOAD " + BOOM, token, what);
                servesTheNextClient(what);
            }
        }
    }

    /** The relay failing while it is built (the upstream connected): nothing relayed yet, so the client still hears why. */
    @Test
    void aFailureBeforeTheRelayStartsIsAnsweredOnBothPaths() throws Exception {
        int round = 0;
        for (boolean proxyFrame : new boolean[] {false, true}) {
            String token = "upstream-" + (round++);
            failAt(Point.NEW_RELAY, new IllegalStateException(token));
            try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "", Duration.ofSeconds(30))) {
                if (proxyFrame) {
                    // "proxy ready" is out: the error answers the first request relayed.
                    assertThat(c.proxy("copy", 0)).isEqualTo("copy");
                }
                assertThatThrownBy(() -> c.download(download(BOOM))).as("proxy frame " + proxyFrame)
                        .isInstanceOfSatisfying(RemoteException.class, e -> {
                            assertThat(e.status()).isEqualTo(Status.SERVER_ERROR);
                            assertThat(e.getMessage()).contains("internal error", token);
                        });
            }
            fault = null;
            assertLogged(proxyFrame ? "PROXY copy" : "DOWNLOAD " + BOOM, token, "proxy frame " + proxyFrame);
            servesTheNextClient("after " + token);
        }
    }

    @Test
    void aFailureOnceRelayingClosesTheConnectionAndIsLogged() throws Exception {
        int round = 0;
        for (Function<String, Throwable> kind : KINDS) {
            String token = "relaying-" + (round++);
            failAt(Point.RELAY, kind.apply(token));
            String what = kind.apply(token).getClass().getSimpleName();
            try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "", Duration.ofSeconds(30))) {
                // The frame went upstream already: no error frame may be put in front of its answer, only the close.
                assertThatThrownBy(() -> c.download(download(BOOM))).as(what).isInstanceOf(IOException.class)
                        .isNotInstanceOf(RemoteException.class);
            }
            fault = null;
            assertLogged("DOWNLOAD " + BOOM, token, what);
            servesTheNextClient(what);
        }
    }

    @Test
    void aFirstFrameThatIsNotOneIsAnsweredBeforeTheClose() throws Exception {
        try (SocketChannel s = SocketChannel.open(new InetSocketAddress("127.0.0.1", proxy.port()))) {
            s.write(ByteBuffer.wrap("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)));
            assertThatThrownBy(() -> ResponseCodec.readOk(s)).isInstanceOfSatisfying(RemoteException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                assertThat(e.getMessage()).contains("bad magic");
            });
        }
        servesTheNextClient("after a bad frame");
    }

    private void failAt(Point point, Throwable thrown) {
        fault = new Fault(point, thrown);
    }

    private void failIfAt(Point point) {
        Fault f = fault;
        if (f != null && f.point() == point) {
            throw sneaky(f.thrown());
        }
    }

    private SocketChannel connect(InetSocketAddress upstream) throws IOException {
        failIfAt(Point.CONNECT);
        return UpstreamConnector.DIRECT.connect(upstream);
    }

    private Relay newRelay(RelayMethod method, TransferOptions options) throws IOException {
        failIfAt(Point.NEW_RELAY);
        Relay relay = RelayFactory.DIRECT.newRelay(method, options);
        return new Relay() {
            @Override
            public Relayed relay(SocketChannel client, SocketChannel upstream) throws IOException {
                failIfAt(Point.RELAY);
                return relay.relay(client, upstream);
            }

            @Override
            public void close() throws IOException {
                relay.close();
            }
        };
    }

    private static Request download(String name) {
        return new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0);
    }

    private void servesTheNextClient(String what) throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            assertThat(c.download(download("ok.dat")).verified()).as(what + ": the next client").isTrue();
        }
    }

    private void assertLogged(String request, String token, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < deadline) {
            if (log.messages().stream().anyMatch(m -> m.startsWith("proxy 127.0.0.1:") && m.contains(request)
                    && m.contains("internal error") && m.contains(token))) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(what + ": no log line naming the proxy, the client, '" + request + "' and " + token
                + "; logged: " + log.messages());
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
