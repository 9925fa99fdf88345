package io.xferbench.core.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The throw-away certificate: what it names, that its key goes with it, and that nothing of it stays. */
class SelfSignedCertificateTest {
    @TempDir
    Path temp;

    @Test
    void namesLocalhostAndTheGivenHostsAndLeavesNothingWhenClosed() throws Exception {
        Path dir;
        try (SelfSignedCertificate made = SelfSignedCertificate.create(temp, List.of("bench.example", "198.18.0.1"))) {
            dir = made.certificate().getParent();
            X509Certificate cert = PemFiles.certificates(made.certificate()).get(0);
            assertThat(cert.getPublicKey().getAlgorithm()).isEqualTo("EC");
            assertThat(cert.getSubjectAlternativeNames()).extracting(entry -> entry.get(1).toString())
                    .contains("localhost", "127.0.0.1", "bench.example", "198.18.0.1")
                    .anyMatch(ip -> ip.startsWith("0:0:0:0:0:0:0:1"));
            assertThat(cert.getNotAfter().getTime() - cert.getNotBefore().getTime()).isLessThanOrEqualTo(3L * 24 * 3600 * 1000);
            assertThat(PemFiles.privateKey(made.material().privateKey()).getAlgorithm()).isEqualTo("EC");
            JdkTlsContexts.server(made.material()); // key and chain accepted together
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("cert.pem", "key.pem");
            }
        }
        assertThat(dir).doesNotExist();
        try (Stream<Path> left = Files.list(temp)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void aDirectoryADeadRunLeftIsRemovedByTheNext() throws Exception {
        Path stale = Files.createDirectory(temp.resolve(SelfSignedCertificate.PREFIX + "999999999.1-abc"));
        Files.writeString(stale.resolve("key.pem"), "old");
        try (SelfSignedCertificate made = SelfSignedCertificate.create(temp, List.of())) {
            assertThat(stale).doesNotExist();
        }
    }
}
