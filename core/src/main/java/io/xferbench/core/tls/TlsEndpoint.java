package io.xferbench.core.tls;

import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

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

    /** A client engine that checks the server's certificate names {@code host} (its SAN), as a browser would. */
    public SSLEngine clientEngine(String host, int port) {
        SSLEngine engine = settings.applyTo(context.createSSLEngine(host, port));
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        return engine;
    }
}
