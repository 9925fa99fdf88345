package io.xferbench.core.tls;

import java.net.Socket;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/** A client context whose trust manager counts the server certificates it checked: a resumed session sends none. */
final class CountingTrust extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager trust;
    private final AtomicInteger checked;

    private CountingTrust(X509ExtendedTrustManager trust, AtomicInteger checked) {
        this.trust = trust;
        this.checked = checked;
    }

    static SSLContext context(Path trusted, AtomicInteger fullHandshakes) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(PemFiles.trustStore(trusted));
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new CountingTrust((X509ExtendedTrustManager) tmf.getTrustManagers()[0], fullHandshakes)}, null);
        return context;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        trust.checkServerTrusted(chain, authType, engine);
        checked.incrementAndGet();
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        trust.checkServerTrusted(chain, authType, socket);
        checked.incrementAndGet();
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        trust.checkServerTrusted(chain, authType);
        checked.incrementAndGet();
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
        trust.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
        trust.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        trust.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return trust.getAcceptedIssuers();
    }
}
