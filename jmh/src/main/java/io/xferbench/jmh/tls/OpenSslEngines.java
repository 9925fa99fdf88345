package io.xferbench.jmh.tls;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import io.xferbench.core.tls.TlsSettings;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * Netty's OpenSSL engine through netty-tcnative (BoringSSL in the static jar), from {@link SslContextBuilder} with
 * {@link SslProvider#OPENSSL_REFCNT}: the engine of {@link SslProvider#OPENSSL}, whose native state is freed when this
 * releases it rather than when the GC finalises it, so a handshake per op does not pile up native memory.
 *
 * <p>BoringSSL cannot be told which TLS 1.3 suites to offer or accept (Netty logs so if asked, netty/netty#11392): it
 * negotiates by its own order. So the suite is asked for only from OpenSSL proper; what a pair negotiated is checked
 * afterwards ({@link TlsProviders#requireNegotiated}).
 */
final class OpenSslEngines implements EngineSource {
    private final SslContext server;
    private final SslContext client;

    OpenSslEngines(PrivateKey key, X509Certificate certificate, TlsSettings settings) throws SSLException {
        List<String> ciphers = TlsProviders.isBoringSsl() ? null : settings.cipherSuites();
        SslContext s = SslContextBuilder.forServer(key, certificate).sslProvider(SslProvider.OPENSSL_REFCNT)
                .protocols(settings.protocol()).ciphers(ciphers).build();
        try {
            // Netty 4.2 checks the host name by default; these engines have none (so that nothing resumes), and the
            // one certificate trusted is the server's own.
            client = SslContextBuilder.forClient().sslProvider(SslProvider.OPENSSL_REFCNT).trustManager(certificate)
                    .endpointIdentificationAlgorithm(null).protocols(settings.protocol()).ciphers(ciphers).build();
        } catch (SSLException | RuntimeException e) {
            ReferenceCountUtil.release(s);
            throw e;
        }
        server = s;
    }

    @Override
    public SSLEngine client() {
        return client.newEngine(UnpooledByteBufAllocator.DEFAULT);
    }

    @Override
    public SSLEngine server() {
        return server.newEngine(UnpooledByteBufAllocator.DEFAULT);
    }

    @Override
    public void release(SSLEngine engine) {
        ReferenceCountUtil.release(engine);
    }

    @Override
    public void close() {
        ReferenceCountUtil.release(server);
        ReferenceCountUtil.release(client);
    }
}
