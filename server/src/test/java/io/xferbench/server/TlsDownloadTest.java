package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.tls.JdkTlsContexts;
import io.xferbench.core.tls.SelfSignedCertificate;
import io.xferbench.core.tls.TlsEndpoint;
import io.xferbench.core.tls.TlsException;
import io.xferbench.core.tls.TlsSettings;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * tls-jdk end to end on a real server: the head in clear, the body through a TLS session the client opens after it, the
 * close dance, and the connection in clear again; on every threaded model. Failures are told and leave the server
 * serving.
 */
@Timeout(300)
class TlsDownloadTest {
    private static final String TLS = "tls-jdk";
    private static final int RECORD = 16 * 1024;

    @TempDir
    static Path temp;
    @TempDir
    Path dataDir;
    private static SelfSignedCertificate certificate;
    private static SelfSignedCertificate stranger;

    @BeforeAll
    static void certificates() throws IOException {
        certificate = SelfSignedCertificate.create(temp, List.of());
        stranger = SelfSignedCertificate.create(temp, List.of());
    }

    @AfterAll
    static void removeCertificates() throws IOException {
        certificate.close();
        stranger.close();
    }

    private XferServer start(String model) throws IOException {
        return XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model)
                .withTls(new TlsEndpoint(JdkTlsContexts.server(certificate.material()), TlsSettings.DEFAULT)));
    }

    private static XferConnection open(XferServer server, Path trusted) throws IOException {
        return XferConnection.open("127.0.0.1", server.port(), "")
                .tls(new TlsEndpoint(JdkTlsContexts.client(trusted), TlsSettings.cipher("TLS_AES_128_GCM_SHA256")));
    }

    private static DownloadResult download(XferConnection c, String method, long size) throws IOException {
        return c.download(Request.download(method, size, Flags.VERIFY_CRC32C | (method.equals(TLS) ? Flags.TLS : 0), 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual", "virtual+pool:2"})
    void recordEdgesArriveVerifiedAndTheConnectionGoesOnInClear(String model) throws Exception {
        try (XferServer server = start(model); XferConnection c = open(server, certificate.certificate())) {
            for (long size : new long[] {0, 1, RECORD - 1, RECORD, RECORD + 1}) {
                DownloadResult r = download(c, TLS, size);
                assertThat(r.verified()).as(model + " " + size + " B").isTrue();
                assertThat(r.bytes()).isEqualTo(size);
                // The next request on the same connection, in clear: nothing of the session is left on the socket.
                assertThat(download(c, "transfer-to", size + 3).verified()).as("plaintext after " + size + " B").isTrue();
            }
        }
    }

    @Test
    void aLargeBodyArrivesVerified() throws Exception {
        long size = (64L << 20) + 17;
        try (XferServer server = start("platform"); XferConnection c = open(server, certificate.certificate())) {
            DownloadResult r = download(c, TLS, size);
            assertThat(r.verified()).isTrue();
            assertThat(r.bytes()).isEqualTo(size);
        }
    }

    @Test
    void aClientTrustingAnotherCertificateFailsClearlyAndTheServerServesOn() throws Exception {
        try (XferServer server = start("platform")) {
            server.data().generated(1000);
            try (XferConnection c = open(server, stranger.certificate())) {
                assertThatThrownBy(() -> download(c, TLS, 1000))
                        .isInstanceOfSatisfying(TlsException.class, e -> assertThat(e.kind()).isEqualTo(TlsException.Kind.HANDSHAKE_FAILED))
                        .hasMessageContaining("certificate not trusted");
            }
            try (XferConnection c = open(server, certificate.certificate())) {
                assertThat(download(c, TLS, 1000).verified()).isTrue();
            }
        }
    }

    @Test
    void theTlsFlagMustMatchTheMethodAndARefusalStartsNoTls() throws Exception {
        try (XferServer server = start("platform"); XferConnection c = open(server, certificate.certificate())) {
            assertThatThrownBy(() -> c.download(Request.download(TLS, 10, Flags.VERIFY_CRC32C, 0)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST))
                    .hasMessageContaining("tls-jdk sends its body inside TLS");
            assertThatThrownBy(() -> c.download(Request.download("transfer-to", 10, Flags.VERIFY_CRC32C | Flags.TLS, 0)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST))
                    .hasMessageContaining("transfer-to sends in clear");
            assertThat(download(c, TLS, 10).verified()).as("the connection goes on after the refusals").isTrue();
        }
    }

    @Test
    void aServerWithoutACertificateRefusesTlsMethodsUnavailable() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir)); XferConnection c = open(server, certificate.certificate())) {
            assertThatThrownBy(() -> download(c, TLS, 10))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE))
                    .hasMessageContaining("tls-jdk: this server has no TLS certificate: start it with --tls or --tls-cert/--tls-key");
            assertThat(download(c, "transfer-to", 10).verified()).isTrue();
        }
    }

    @Test
    void plaintextInsteadOfAClientHelloEndsThatConnectionOnlyAndTheServerServesOn() throws Exception {
        try (XferServer server = start("platform")) {
            server.data().generated(1000);
            try (SocketChannel raw = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()))) {
                Frames.writeFully(raw, RequestCodec.encode(Request.download(TLS, 1000, Flags.TLS, 0)));
                assertThat(ResponseCodec.readDownloadHeader(raw).length()).isEqualTo(1000);
                // A plaintext request where the ClientHello belongs: the server ends this connection, sends no body.
                Frames.writeFully(raw, RequestCodec.encode(Request.download("transfer-to", 1000, 0, 0)));
                assertThat(bytesUntilClosed(raw)).as("no body, no trailer, then the close").isZero();
            }
            try (XferConnection c = open(server, certificate.certificate())) {
                assertThat(download(c, TLS, 1000).verified()).isTrue();
            }
        }
    }

    /** What arrives before the server closes (a FIN, or a reset when it left bytes unread). */
    private static int bytesUntilClosed(SocketChannel raw) {
        ByteBuffer rest = ByteBuffer.allocate(64);
        int total = 0;
        try {
            int n;
            while ((n = raw.read(rest.clear())) > 0) {
                total += n;
            }
        } catch (IOException reset) {
            // closed all the same
        }
        return total;
    }

    @Test
    void anEventLoopModelRefusesTlsMethodsWithTheReason() throws Exception {
        IoModelTest.assumeModelRuns("netty-epoll");
        try (XferServer server = start("netty-epoll"); XferConnection c = open(server, certificate.certificate())) {
            assertThatThrownBy(() -> download(c, TLS, 10))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE))
                    .hasMessageContaining("tls-jdk: not on the event-loop models");
            assertThat(download(c, "transfer-to", 10).verified()).isTrue();
        }
    }
}
