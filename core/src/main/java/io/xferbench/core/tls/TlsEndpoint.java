package io.xferbench.core.tls;

import java.util.Enumeration;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;

/**
 * One end's TLS: its SSLContext and settings, making an engine per transfer. What a server hands its TLS senders, and a
 * client its TLS downloads.
 */
public record TlsEndpoint(SSLContext context, TlsSettings settings) {
    public TlsEndpoint {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(settings, "settings");
    }

    public SSLEngine serverEngine() {
        SSLEngine engine = settings.applyTo(context.createSSLEngine());
        engine.setUseClientMode(false);
        return engine;
    }

    /**
     * A client engine that checks the server's certificate names {@code host} (its SAN), as a browser would, and makes a
     * full handshake: the JDK would otherwise resume the last session to {@code host:port} from the server's ticket
     * (no certificate, no signature), and every transfer after a run's first would measure a resumption.
     */
    public SSLEngine clientEngine(String host, int port) {
        forgetSessions(context.getClientSessionContext());
        SSLEngine engine = settings.applyTo(context.createSSLEngine(host, port));
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        return engine;
    }

    private static void forgetSessions(SSLSessionContext sessions) {
        for (Enumeration<byte[]> ids = sessions.getIds(); ids.hasMoreElements(); ) {
            SSLSession session = sessions.getSession(ids.nextElement());
            if (session != null) {
                session.invalidate();
            }
        }
    }
}
