package io.xferbench.jmh.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import io.xferbench.core.netty.NettyNativeWorkdir;
import io.xferbench.core.tls.JdkTlsContexts;
import io.xferbench.core.tls.PemFiles;
import io.xferbench.core.tls.SelfSignedCertificate;
import io.xferbench.core.tls.TlsMaterial;
import io.xferbench.core.tls.TlsSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLSession;

/**
 * The TLS engines the benchmarks compare: {@code jdk}, the JDK's {@code SSLEngine}, and {@code openssl}, Netty's
 * OpenSSL/BoringSSL engine (netty-tcnative), which may fail to load here.
 */
public final class TlsProviders {
    public static final String JDK = "jdk";
    public static final String OPENSSL = "openssl";
    private static final List<String> ALL = List.of(JDK, OPENSSL);

    private TlsProviders() {
    }

    public static List<String> all() {
        return ALL;
    }

    /** Null when {@code provider}'s engines run here with TLS 1.3, else why not, one line. */
    public static String unavailableReason(String provider) {
        return switch (provider) {
            case JDK -> null; // TLS 1.3 is in every JDK this suite runs on (21+)
            case OPENSSL -> {
                // Extracted into the suite's own workdir with the other Netty natives, which removes it afterwards:
                // a later load would find the workdir gone.
                NettyNativeWorkdir.loadNatives();
                if (!OpenSsl.isAvailable()) {
                    Throwable cause = OpenSsl.unavailabilityCause();
                    yield "netty-tcnative cannot load: " + (cause == null ? "no reason given" : firstLine(cause));
                }
                yield SslProvider.isTlsv13Supported(SslProvider.OPENSSL) ? null : OpenSsl.versionString() + " has no TLS 1.3";
            }
            default -> throw new IllegalArgumentException("unknown TLS provider '" + provider + "' (one of " + ALL + ")");
        };
    }

    /**
     * {@code provider}'s engines for TLS 1.3 with {@code cipher} (checked by {@link TlsSettings}), both ends holding a
     * self-signed certificate made for them: its files are read into the contexts and removed before this returns.
     */
    public static EngineSource open(String provider, String cipher) throws IOException {
        TlsSettings settings = TlsSettings.cipher(cipher);
        try (SelfSignedCertificate certificate = SelfSignedCertificate.create(Path.of(System.getProperty("java.io.tmpdir")), List.of())) {
            TlsMaterial material = certificate.material();
            return switch (provider) {
                case JDK -> new JdkEngines(JdkTlsContexts.server(material), JdkTlsContexts.client(certificate.certificate()), settings);
                case OPENSSL -> new OpenSslEngines(PemFiles.privateKey(material.privateKey()),
                        PemFiles.certificates(material.certificateChain()).get(0), settings);
                default -> throw new IllegalArgumentException("unknown TLS provider '" + provider + "' (one of " + ALL + ")");
            };
        }
    }

    /** The library behind {@code openssl}, e.g. "BoringSSL"; for the table's notes. */
    public static String openSslVersion() {
        return OpenSsl.isAvailable() ? OpenSsl.versionString() : "not loaded";
    }

    /** Whether {@code provider} can be made to negotiate one TLS 1.3 suite: not BoringSSL, which has its own order. */
    public static boolean choosesTls13Suite(String provider) {
        return !provider.equals(OPENSSL) || !isBoringSsl();
    }

    /** Netty's own test is not public; its version string is "BoringSSL" for the static jar. */
    static boolean isBoringSsl() {
        return OpenSsl.isAvailable() && OpenSsl.versionString().startsWith("BoringSSL");
    }

    /**
     * Fails unless the pair's handshake gave TLS 1.3 with {@code cipher}: "SKIPPED: " with the reason for a provider that
     * cannot be asked for a suite (BoringSSL), a plain failure for one that was asked and gave another.
     */
    public static void requireNegotiated(EnginePair pair, String provider, String cipher) {
        SSLSession session = pair.server().getSession();
        String got = session.getCipherSuite();
        if (!"TLSv1.3".equals(session.getProtocol())) {
            throw new IllegalStateException(provider + ": negotiated " + session.getProtocol() + " " + got + ", not TLSv1.3");
        }
        if (got.equals(cipher)) {
            return;
        }
        if (!choosesTls13Suite(provider)) {
            throw new IllegalStateException("SKIPPED: " + provider + " " + cipher + ": " + OpenSsl.versionString()
                    + " picks TLS 1.3 suites by its own order and cannot be told otherwise; a pair of its engines negotiates " + got);
        }
        throw new IllegalStateException(provider + ": asked for " + cipher + ", negotiated " + got);
    }

    private static String firstLine(Throwable t) {
        String s = t.toString();
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
