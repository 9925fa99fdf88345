package io.xferbench.server;

import io.xferbench.core.tls.JdkTlsContexts;
import io.xferbench.core.tls.SelfSignedCertificate;
import io.xferbench.core.tls.TlsEndpoint;
import io.xferbench.core.tls.TlsSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One self-signed certificate for the tests of this JVM that serve TLS methods next to the others (made once: each is a
 * keytool run), removed by its shutdown hook.
 */
public final class TestTls {
    private static SelfSignedCertificate certificate;

    private TestTls() {
    }

    private static synchronized SelfSignedCertificate certificate() {
        if (certificate == null) {
            try {
                certificate = SelfSignedCertificate.create(Path.of(System.getProperty("java.io.tmpdir")), List.of());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return certificate;
    }

    public static TlsEndpoint server() throws IOException {
        return new TlsEndpoint(JdkTlsContexts.server(certificate().material()), TlsSettings.DEFAULT);
    }

    public static TlsEndpoint client() throws IOException {
        return new TlsEndpoint(JdkTlsContexts.client(certificate().certificate()), TlsSettings.DEFAULT);
    }
}
