package io.xferbench.server;

import io.xferbench.core.tls.JdkTlsContexts;
import io.xferbench.core.tls.SelfSignedCertificate;
import io.xferbench.core.tls.TlsEndpoint;
import io.xferbench.core.tls.TlsMaterial;
import io.xferbench.core.tls.TlsSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The server program's TLS end: the certificate and key it was given, or a self-signed pair made at start into the temp
 * directory and removed when the server ends (its close, or the certificate's own shutdown hook). The certificate's path
 * is announced on the listening line so whoever started the server can trust exactly it.
 */
final class ServerTls implements AutoCloseable {
    private final TlsEndpoint endpoint;
    private final Path certificate;
    private final SelfSignedCertificate made;

    private ServerTls(TlsEndpoint endpoint, Path certificate, SelfSignedCertificate made) {
        this.endpoint = endpoint;
        this.certificate = certificate;
        this.made = made;
    }

    /**
     * From {@code --tls-cert} and {@code --tls-key} (both or neither; checked here, a usage error naming the option), or
     * with {@code --tls} a self-signed certificate naming localhost and {@code bind}; null without either, so that a
     * server that serves no TLS pays no keytool run at start.
     */
    static ServerTls of(boolean selfSigned, Path cert, Path key, String bind) throws IOException {
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException(cert == null ? "--tls-key needs --tls-cert (the certificate chain it signs for)"
                    : "--tls-cert needs --tls-key (its private key, PEM PKCS#8)");
        }
        if (cert != null) {
            readable("--tls-cert", cert);
            readable("--tls-key", key);
            TlsMaterial material = new TlsMaterial(cert, key);
            try {
                return new ServerTls(new TlsEndpoint(JdkTlsContexts.server(material), TlsSettings.DEFAULT), cert, null);
            } catch (IOException e) {
                throw new IllegalArgumentException("--tls-cert/--tls-key: " + e.getMessage(), e);
            }
        }
        if (!selfSigned) {
            return null;
        }
        List<String> hosts = List.of("0.0.0.0", "::", "127.0.0.1", "localhost").contains(bind) ? List.of() : List.of(bind);
        SelfSignedCertificate made = SelfSignedCertificate.create(Path.of(System.getProperty("java.io.tmpdir")), hosts);
        try {
            return new ServerTls(new TlsEndpoint(JdkTlsContexts.server(made.material()), TlsSettings.DEFAULT), made.certificate(), made);
        } catch (IOException | RuntimeException e) {
            made.close();
            throw e;
        }
    }

    private static void readable(String option, Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(option + " " + file + " is not a readable file");
        }
    }

    TlsEndpoint endpoint() {
        return endpoint;
    }

    /** The certificate clients are to trust, as the listening line names it. */
    Path certificate() {
        return certificate;
    }

    /** Removes a self-signed pair; a given one is the user's and stays. */
    @Override
    public void close() throws IOException {
        if (made != null) {
            made.close();
        }
    }
}
