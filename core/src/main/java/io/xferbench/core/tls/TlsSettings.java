package io.xferbench.core.tls;

import java.util.List;
import javax.net.ssl.SSLEngine;

/**
 * The protocol and cipher suites a TLS endpoint allows. TLS 1.3 only: its three suites are what the suite compares, and
 * a second protocol would double every row without a question behind it. A server allows all three by default, so the
 * client's choice ({@code --tls-cipher}) decides what a transfer runs with.
 */
public record TlsSettings(String protocol, List<String> cipherSuites) {
    public static final String TLS_1_3 = "TLSv1.3";
    public static final List<String> ALLOWED_CIPHERS = List.of(
            "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256");
    /** TLS 1.3 with any of the allowed suites. */
    public static final TlsSettings DEFAULT = new TlsSettings(TLS_1_3, ALLOWED_CIPHERS);

    public TlsSettings {
        if (!TLS_1_3.equals(protocol)) {
            throw new IllegalArgumentException("TLS protocol '" + protocol + "' is not supported (allowed: " + TLS_1_3 + ")");
        }
        cipherSuites = List.copyOf(cipherSuites);
        if (cipherSuites.isEmpty()) {
            throw new IllegalArgumentException("no TLS cipher suite given (allowed: " + String.join(", ", ALLOWED_CIPHERS) + ")");
        }
        for (String suite : cipherSuites) {
            if (!ALLOWED_CIPHERS.contains(suite)) {
                throw new IllegalArgumentException("TLS cipher suite '" + suite + "' is not allowed (allowed: "
                        + String.join(", ", ALLOWED_CIPHERS) + ")");
            }
        }
    }

    /** TLS 1.3 with exactly {@code cipherSuite}; an unknown name fails with a one-line message. */
    public static TlsSettings cipher(String cipherSuite) {
        return new TlsSettings(TLS_1_3, List.of(cipherSuite));
    }

    /** Restricts {@code engine} to these settings. */
    public SSLEngine applyTo(SSLEngine engine) {
        engine.setEnabledProtocols(new String[] {protocol});
        engine.setEnabledCipherSuites(cipherSuites.toArray(String[]::new));
        return engine;
    }
}
