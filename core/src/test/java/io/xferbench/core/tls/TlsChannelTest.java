package io.xferbench.core.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.protocol.Frames;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link TlsChannel} over real loopback sockets: bytes exact at the record edges, the close dance, and each failure told. */
@Timeout(120)
class TlsChannelTest {
    private static final int RECORD = 16 * 1024;
    private static final List<Integer> SIZES = List.of(0, 1, RECORD - 1, RECORD, RECORD + 1, (1 << 20) + 17);

    @TempDir
    static Path temp;
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

    private static TlsEndpoint server(TlsSettings settings) throws IOException {
        return new TlsEndpoint(JdkTlsContexts.server(certificate.material()), settings);
    }

    private static TlsEndpoint client(Path trusted, TlsSettings settings) throws IOException {
        return new TlsEndpoint(JdkTlsContexts.client(trusted), settings);
    }

    @Test
    void bodiesArriveExactWithEachCipherAndTheSocketGoesOnInClear() throws Exception {
        TlsEndpoint server = server(TlsSettings.DEFAULT);
        for (String cipher : TlsSettings.ALLOWED_CIPHERS) {
            TlsEndpoint client = client(certificate.certificate(), TlsSettings.cipher(cipher));
            try (TlsTestPair pair = new TlsTestPair()) {
                TlsBuffers serverBuffers = new TlsBuffers();
                TlsBuffers clientBuffers = new TlsBuffers();
                for (int size : SIZES) {
                    byte[] body = new byte[size];
                    new Random(size).nextBytes(body);
                    Future<Void> sent = TlsTestPair.onThread(() -> {
                        TlsChannel tls = TlsChannel.accept(pair.server, server, serverBuffers, "client");
                        ByteBuffer direct = ByteBuffer.allocateDirect(Math.max(1, size)).put(body).flip();
                        tls.write(direct);
                        tls.closeAsServer();
                        Frames.writeFully(pair.server, ascii("after " + size));
                        return null;
                    });
                    TlsChannel tls = TlsChannel.connect(pair.client, client, clientBuffers, "localhost", pair.port());
                    assertThat(tls.cipherSuite()).isEqualTo(cipher);
                    assertThat(readExactly(tls, size)).as(cipher + " " + size + " B").isEqualTo(body);
                    tls.closeAsClient();
                    sent.get(30, TimeUnit.SECONDS);
                    // The server's plaintext follows its close_notify at once: not one byte of it was taken by the dance.
                    assertThat(readClear(pair.client, ("after " + size).length())).isEqualTo("after " + size);
                    Frames.writeFully(pair.client, ascii("next"));
                    assertThat(readClear(pair.server, 4)).isEqualTo("next");
                }
            }
        }
    }

    /** Each transfer is a full handshake (the client checks the server's certificate), never a resumption of the last one's session. */
    @Test
    void everyTransferIsAFullHandshake() throws Exception {
        java.util.concurrent.atomic.AtomicInteger fullHandshakes = new java.util.concurrent.atomic.AtomicInteger();
        TlsEndpoint server = server(TlsSettings.DEFAULT);
        TlsEndpoint client = new TlsEndpoint(CountingTrust.context(certificate.certificate(), fullHandshakes), TlsSettings.DEFAULT);
        try (TlsTestPair pair = new TlsTestPair()) {
            TlsBuffers serverBuffers = new TlsBuffers();
            TlsBuffers clientBuffers = new TlsBuffers();
            for (int transfer = 1; transfer <= 3; transfer++) {
                Future<Void> sent = TlsTestPair.onThread(() -> {
                    TlsChannel tls = TlsChannel.accept(pair.server, server, serverBuffers, "client");
                    tls.write(ByteBuffer.allocateDirect(1000));
                    tls.closeAsServer();
                    return null;
                });
                TlsChannel tls = TlsChannel.connect(pair.client, client, clientBuffers, "localhost", pair.port());
                assertThat(readExactly(tls, 1000)).hasSize(1000);
                tls.closeAsClient();
                sent.get(30, TimeUnit.SECONDS);
                assertThat(fullHandshakes.get()).as("full handshakes after transfer " + transfer).isEqualTo(transfer);
            }
        }
    }

    @Test
    void aClientTrustingAnotherCertificateFailsTheHandshakeClearly() throws Exception {
        try (TlsTestPair pair = new TlsTestPair()) {
            Future<TlsChannel> accepted = TlsTestPair.onThread(
                    () -> TlsChannel.accept(pair.server, server(TlsSettings.DEFAULT), new TlsBuffers(), "client"));
            assertThatThrownBy(() -> TlsChannel.connect(pair.client, client(stranger.certificate(), TlsSettings.DEFAULT),
                    new TlsBuffers(), "localhost", pair.port()))
                    .isInstanceOfSatisfying(TlsException.class, e -> assertThat(e.kind()).isEqualTo(TlsException.Kind.HANDSHAKE_FAILED))
                    .hasMessageContaining("TLS handshake with localhost:")
                    .hasMessageContaining("certificate not trusted");
            assertThatThrownBy(() -> accepted.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(TlsException.class,
                            e -> assertThat(e.kind()).isIn(TlsException.Kind.HANDSHAKE_FAILED, TlsException.Kind.TRUNCATED));
        }
    }

    @Test
    void aRecordCutShortIsToldAsTruncated() throws Exception {
        try (TlsTestPair pair = new TlsTestPair()) {
            Future<Void> cut = TlsTestPair.onThread(() -> {
                TlsChannel.accept(pair.server, server(TlsSettings.DEFAULT), new TlsBuffers(), "client");
                // An application-data record header announcing 16 KiB, 100 bytes of it, then the end.
                ByteBuffer partial = ByteBuffer.allocate(105).put(new byte[] {23, 3, 3, 0x40, 0}).position(105).flip();
                Frames.writeFully(pair.server, partial);
                pair.server.shutdownOutput();
                return null;
            });
            TlsChannel tls = TlsChannel.connect(pair.client, client(certificate.certificate(), TlsSettings.DEFAULT),
                    new TlsBuffers(), "localhost", pair.port());
            cut.get(30, TimeUnit.SECONDS);
            assertThatThrownBy(() -> readExactly(tls, 1))
                    .isInstanceOfSatisfying(TlsException.class, e -> assertThat(e.kind()).isEqualTo(TlsException.Kind.TRUNCATED))
                    .hasMessageContaining("in the middle of a TLS record");
        }
    }

    @Test
    void garbageInsteadOfAClientHelloIsToldAsNotTls() throws Exception {
        try (TlsTestPair pair = new TlsTestPair()) {
            Frames.writeFully(pair.client, ascii("XFB1 this is no ClientHello"));
            assertThatThrownBy(() -> TlsChannel.accept(pair.server, server(TlsSettings.DEFAULT), new TlsBuffers(), "client"))
                    .isInstanceOfSatisfying(TlsException.class, e -> assertThat(e.kind()).isEqualTo(TlsException.Kind.NOT_TLS))
                    .hasMessageContaining("did not start a TLS handshake")
                    .hasMessageContaining("58464231");
        }
    }

    @Test
    void aClosedPeerDuringTheHandshakeIsTruncation() throws Exception {
        try (TlsTestPair pair = new TlsTestPair()) {
            pair.client.close();
            assertThatThrownBy(() -> TlsChannel.accept(pair.server, server(TlsSettings.DEFAULT), new TlsBuffers(), "client"))
                    .isInstanceOfSatisfying(TlsException.class, e -> assertThat(e.kind()).isEqualTo(TlsException.Kind.TRUNCATED))
                    .hasMessageContaining("during the TLS handshake");
        }
    }

    @Test
    void aCloseDanceReadNeverPassesTheRecordItIsIn() {
        ByteBuffer held = ByteBuffer.allocate(64);
        assertThat(TlsChannel.toRecordEnd(held)).isEqualTo(5);
        held.put(new byte[] {23, 3, 3});
        assertThat(TlsChannel.toRecordEnd(held)).isEqualTo(2);
        held.put(new byte[] {0, 19});
        assertThat(TlsChannel.toRecordEnd(held)).isEqualTo(19);
        held.position(24);
        assertThat(TlsChannel.toRecordEnd(held)).isEqualTo(5);
    }

    private static byte[] readExactly(TlsChannel tls, int size) throws IOException {
        ByteBuffer into = ByteBuffer.allocateDirect(Math.max(1, size)).limit(size);
        while (into.hasRemaining()) {
            if (tls.read(into) < 0) {
                throw new EOFException("TLS session ended after " + into.position() + " of " + size + " bytes");
            }
        }
        byte[] bytes = new byte[size];
        into.flip().get(bytes);
        return bytes;
    }

    private static String readClear(SocketChannel socket, int length) throws IOException {
        ByteBuffer into = ByteBuffer.allocate(length);
        while (into.hasRemaining()) {
            if (socket.read(into) < 0) {
                throw new EOFException("closed after " + into.position() + " of " + length + " plaintext bytes");
            }
        }
        return new String(into.array(), StandardCharsets.US_ASCII);
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }
}
