package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.Sizes;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.RelayMethod;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.UploadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.RelayMethods;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.UploadIntegrationTest;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** client → proxy → upstream xferbench server on loopback, with every relay method. */
@Timeout(120)
class ProxyIntegrationTest {
    private static final long[] SIZES = {0, 1, Sizes.MiB + 1, 64 * Sizes.MiB};

    @TempDir
    static Path serverDir;
    @TempDir
    static Path clientDir;
    static XferServer server;
    static XferProxy proxy;
    static DataDirectory client;

    @BeforeAll
    static void start() throws Exception {
        server = XferServer.start(ServerConfig.loopback(serverDir));
        proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy"));
        client = new DataDirectory(clientDir);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        server.close();
    }

    static Stream<String> relays() {
        return RelayMethods.ids().stream();
    }

    static Stream<Arguments> relaysAndSizes() {
        return relays().flatMap(r -> Stream.of(SIZES).flatMapToLong(java.util.Arrays::stream).mapToObj(s -> Arguments.of(r, s)));
    }

    @ParameterizedTest(name = "{0} {1} bytes")
    @MethodSource("relaysAndSizes")
    void downloadsThroughEveryRelayAreByteExact(String relay, long size) throws Exception {
        assumeAvailable(relay);
        try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            assertThat(c.proxy(relay, 0)).isEqualTo(relay);
            for (String method : List.of("channel-direct", "transfer-to")) {
                DownloadResult r = c.download(Request.download(method, size, Flags.VERIFY_CRC32C, 0));
                assertThat(r.failure()).as(relay + " " + method + " " + size).isNull();
                assertThat(r.bytes()).isEqualTo(size);
                assertThat(r.verified()).isTrue();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("relays")
    void uploadsAndSmallExchangesThroughEveryRelay(String relay) throws Exception {
        assumeAvailable(relay);
        TestFile body = client.generated(Sizes.MiB + 1);
        try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            c.proxy(relay, 4096); // small (many rounds per body), and a page: the least a splice relay's pipe takes
            UploadResult up = c.upload(Request.upload("channel-direct", "via-" + relay + ".dat", 0, 0, 0, 0), body);
            assertThat(up.failure()).isNull();
            // Many small request/response round trips: each must come back whole and in order.
            for (int i = 0; i < 100; i++) {
                JsonNode info = new ObjectMapper().readTree(c.control(Op.INFO));
                assertThat(info.get("server").asText()).isEqualTo("xferbench");
                DownloadResult one = c.download(Request.download("stream", 1 + i % 7, Flags.VERIFY_CRC32C, 0));
                assertThat(one.verified()).isTrue();
            }
        }
        assertThat(UploadIntegrationTest.crc32c(serverDir.resolve("via-" + relay + ".dat"))).isEqualTo(body.crc32c());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("relays")
    void aPlainClientIsRelayedWithTheDefaultRelay(String relay) throws Exception {
        assumeAvailable(relay);
        try (XferProxy dedicated = XferProxy.start(ProxyConfig.loopback(server.port(), relay));
             XferConnection c = XferConnection.open("127.0.0.1", dedicated.port(), "")) {
            DownloadResult r = c.download(Request.download("transfer-to", 8 * Sizes.MiB + 3, Flags.VERIFY_CRC32C, 0));
            assertThat(r.verified()).isTrue();
            assertThat(new ObjectMapper().readTree(c.control(Op.INFO)).get("server").asText()).isEqualTo("xferbench");
        }
    }

    /**
     * A generic upstream: counts and checksums what arrives until end of stream, then answers with both and
     * closes. The client ends its stream right after the last byte: the relay must forward every byte, then the
     * end of stream, then carry the answer back.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("relays")
    void endOfStreamIsForwardedAfterEveryByteAndTheAnswerStillComesBack(String relay) throws Exception {
        assumeAvailable(relay);
        long size = 4 * Sizes.MiB + 5;
        try (ServerSocketChannel sink = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            Thread upstream = new Thread(() -> countUntilEof(sink));
            upstream.setDaemon(true);
            upstream.start();
            int sinkPort = ((InetSocketAddress) sink.getLocalAddress()).getPort();
            try (XferProxy dedicated = XferProxy.start(ProxyConfig.loopback(sinkPort, relay));
                 SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", dedicated.port()))) {
                ByteBuffer frame = io.xferbench.core.protocol.RequestCodec.encode(Request.proxy(relay, 0));
                Frames.writeFully(c, frame);
                assertThat(io.xferbench.core.protocol.ResponseCodec.readProxyReady(c)).isEqualTo(relay);
                ByteBuffer body = ByteBuffer.allocateDirect((int) size);
                new ContentGenerator(7).fill(body, 0);
                body.flip();
                CRC32C crc = new CRC32C();
                crc.update(body.duplicate());
                Frames.writeFully(c, body);
                c.shutdownOutput();
                ByteBuffer answer = ByteBuffer.allocate(12);
                Frames.readFully(c, answer);
                answer.flip();
                assertThat(answer.getLong()).as(relay + " bytes relayed before the end of stream").isEqualTo(size);
                assertThat(answer.getInt()).isEqualTo((int) crc.getValue());
                assertThat(c.read(ByteBuffer.allocate(1))).as("the upstream's close is forwarded").isEqualTo(-1);
            }
            upstream.join(10_000);
        }
    }

    private static void countUntilEof(ServerSocketChannel sink) {
        try (SocketChannel s = sink.accept()) {
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            CRC32C crc = new CRC32C();
            long total = 0;
            int n;
            while ((n = s.read(buf.clear())) >= 0) {
                crc.update(buf.flip());
                total += n;
            }
            Frames.writeFully(s, ByteBuffer.allocate(12).putLong(total).putInt((int) crc.getValue()).flip());
        } catch (IOException e) {
            // The test's assertions report what went wrong.
        }
    }

    @Test
    void proxyFrameErrorsAreAnsweredAndTheClientMayRetry() throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            assertThatThrownBy(() -> c.proxy("no-such-relay", 0)).isInstanceOfSatisfying(RemoteException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                assertThat(e.reason()).contains("unknown relay", "copy");
            });
            assertThat(c.proxy("", 0)).isEqualTo("copy");
            assertThat(c.download(Request.download("stream", 10, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }

    @Test
    void anUnreachableUpstreamIsReportedToTheClient() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (XferProxy orphan = XferProxy.start(ProxyConfig.loopback(closedPort, "copy"));
             XferConnection c = XferConnection.open("127.0.0.1", orphan.port(), "")) {
            assertThatThrownBy(() -> c.proxy("copy", 0)).isInstanceOfSatisfying(RemoteException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.SERVER_ERROR);
                assertThat(e.reason()).contains("cannot reach upstream");
            });
        }
    }

    @Test
    void aServerThatIsNotAProxyRefusesTheProxyFrame() throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            assertThatThrownBy(() -> c.proxy("copy", 0)).isInstanceOfSatisfying(RemoteException.class, e -> {
                assertThat(e.status()).isEqualTo(Status.BAD_REQUEST);
                assertThat(e.reason()).contains("not a proxy");
            });
        }
    }

    @Test
    void infoListsRelayMethods() throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            JsonNode methods = new ObjectMapper().readTree(c.control(Op.INFO)).get("methods");
            List<String> proxies = StreamSupport.stream(methods.spliterator(), false)
                    .filter(m -> m.get("direction").asText().equals("proxy")).map(m -> m.get("id").asText()).toList();
            assertThat(proxies).containsExactlyElementsOf(RelayMethods.ids());
        }
    }

    @Test
    void closingTheProxyEndsItsRelays() throws Exception {
        for (String relay : RelayMethods.ids()) {
            RelayMethod m = RelayMethods.byId(relay).orElseThrow();
            if (!m.availability().isAvailable()) {
                continue;
            }
            XferProxy dedicated = XferProxy.start(ProxyConfig.loopback(server.port(), relay));
            try (XferConnection c = XferConnection.open("127.0.0.1", dedicated.port(), "")) {
                c.proxy(relay, 0);
                dedicated.close();
                assertThatThrownBy(() -> c.download(Request.download("stream", 10, 0, 0))).as(relay).isInstanceOf(IOException.class);
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (dedicated.activeConnections() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertThat(dedicated.activeConnections()).as(relay).isZero();
            }
        }
    }

    static void assumeAvailable(String id) {
        RelayMethod method = RelayMethods.byId(id).orElseThrow();
        MethodAssumptions.assumeAvailable(id, method.availability());
    }
}
