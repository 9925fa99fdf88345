package io.xferbench.client.command;

import io.xferbench.core.tls.JdkTlsContexts;
import io.xferbench.core.tls.TlsEndpoint;
import io.xferbench.core.tls.TlsSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** What a client trusts for the TLS methods, and the cipher it offers: one certificate, never "trust all". */
final class TlsOptions {
    /** The one-line reason a TLS method cannot run without {@code --tls-ca}. */
    static final String NEEDS_CA = "a TLS method: give --tls-ca FILE, the server's certificate (its listening line ends "
            + "'tls-cert=PATH')";

    @Option(names = "--tls-ca", description = "Certificate (PEM) to trust for the TLS methods (tls-jdk): the server's, "
            + "as its listening line names it (tls-cert=PATH). Without it, --method all leaves the TLS methods out and naming "
            + "one is a usage error.")
    Path ca;

    @Option(names = "--tls-cipher", defaultValue = "TLS_AES_128_GCM_SHA256", description = "TLS 1.3 cipher suite the client "
            + "offers, and so the one used: TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384 or TLS_CHACHA20_POLY1305_SHA256 "
            + "(default: ${DEFAULT-VALUE}).")
    String cipher;

    /** The suite offered to the TLS methods, as the report's settings record it; null without {@code --tls-ca}. */
    String offeredCipher() {
        return ca == null ? null : cipher;
    }

    /** The client's TLS end, or null without {@code --tls-ca}; a bad file or cipher is a usage error. */
    TlsEndpoint endpoint() {
        TlsSettings settings = TlsSettings.cipher(cipher);
        if (ca == null) {
            return null;
        }
        if (!Files.isRegularFile(ca) || !Files.isReadable(ca)) {
            throw new IllegalArgumentException("--tls-ca " + ca + " is not a readable file");
        }
        try {
            return new TlsEndpoint(JdkTlsContexts.client(ca), settings);
        } catch (IOException e) {
            throw new IllegalArgumentException("--tls-ca " + e.getMessage(), e);
        }
    }
}
