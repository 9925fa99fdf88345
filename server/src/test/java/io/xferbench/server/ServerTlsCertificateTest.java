package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.tls.JdkTlsContexts;
import io.xferbench.core.tls.SelfSignedCertificate;
import io.xferbench.core.tls.TlsEndpoint;
import io.xferbench.core.tls.TlsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server program's certificate: made at start with --tls, named on the listening line, trusted by a client from
 * there, and removed when the server ends; one given with --tls-cert/--tls-key is served and left alone; without either
 * none is made (no keytool run) and the TLS methods are refused with the options to ask.
 */
@Timeout(180)
class ServerTlsCertificateTest {
    @TempDir
    Path tmp;
    @TempDir
    Path dataDir;

    private static Path announced(ServerProcess s) {
        int at = s.listening.indexOf(" tls-cert=");
        assertThat(at).as(s.listening).isPositive();
        return Path.of(s.listening.substring(at + " tls-cert=".length()));
    }

    private static void downloadOverTls(ServerProcess s, Path trusted) throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", s.port, "")
                .tls(new TlsEndpoint(JdkTlsContexts.client(trusted), TlsSettings.DEFAULT))) {
            assertThat(c.download(Request.download("tls-jdk", 100_000, Flags.VERIFY_CRC32C | Flags.TLS, 0)).verified()).isTrue();
        }
    }

    @Test
    void aSelfSignedCertificateIsAnnouncedTrustedAndRemovedAtExit() throws Exception {
        try (ServerProcess s = ServerProcess.start(List.of(), List.of("-Djava.io.tmpdir=" + tmp), dataDir, "--tls")) {
            Path cert = announced(s);
            assertThat(cert).startsWith(tmp).isRegularFile();
            downloadOverTls(s, cert);
            s.process.destroy(); // SIGTERM
            assertThat(s.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(cert.getParent()).as("the certificate's directory, after the server").doesNotExist();
        }
    }

    @Test
    void aGivenCertificateIsServedAndLeftInPlace() throws Exception {
        try (SelfSignedCertificate given = SelfSignedCertificate.create(tmp, List.of());
             ServerProcess s = ServerProcess.start(dataDir, "--tls-cert", given.certificate().toString(),
                     "--tls-key", given.material().privateKey().toString())) {
            assertThat(announced(s)).isEqualTo(given.certificate());
            downloadOverTls(s, given.certificate());
            s.process.destroy();
            assertThat(s.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(given.certificate()).exists();
            assertThat(given.material().privateKey()).exists();
        }
    }

    @Test
    void withoutTlsOptionsNoCertificateIsMadeAndTlsMethodsAreRefusedNamingThem() throws Exception {
        String reason = "tls-jdk: this server has no TLS certificate: start it with --tls or --tls-cert/--tls-key";
        try (ServerProcess s = ServerProcess.start(List.of(), List.of("-Djava.io.tmpdir=" + tmp), dataDir);
             XferConnection c = XferConnection.open("127.0.0.1", s.port, "").tls(TestTls.client())) {
            assertThat(s.listening).doesNotContain("tls-cert=");
            try (Stream<Path> made = Files.list(tmp)) {
                assertThat(made.filter(p -> p.getFileName().toString().startsWith("xferbench-tls-")).toList())
                        .as("certificate directories in the server's temp directory").isEmpty();
            }
            assertThatThrownBy(() -> c.download(Request.download("tls-jdk", 10, Flags.VERIFY_CRC32C | Flags.TLS, 0)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE))
                    .hasMessageContaining(reason);
            JsonNode info = new ObjectMapper().readTree(c.control(Op.INFO));
            JsonNode tls = null;
            for (JsonNode m : info.path("methods")) {
                if (m.path("id").asText().equals("tls-jdk")) {
                    tls = m;
                }
            }
            assertThat(tls).as("INFO's tls-jdk").isNotNull();
            assertThat(tls.path("available").asBoolean(true)).isFalse();
            assertThat(tls.path("unavailableReason").asText()).isEqualTo(reason);
            assertThat(c.download(Request.download("transfer-to", 10, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }
}
