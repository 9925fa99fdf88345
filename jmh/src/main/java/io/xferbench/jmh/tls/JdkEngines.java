package io.xferbench.jmh.tls;

import io.xferbench.core.tls.TlsSettings;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

/** The JDK's own {@link SSLEngine} (SunJSSE), from the contexts the suite's tls-jdk method uses ({@code JdkTlsContexts}). */
final class JdkEngines implements EngineSource {
    private final SSLContext serverContext;
    private final SSLContext clientContext;
    private final TlsSettings settings;

    JdkEngines(SSLContext serverContext, SSLContext clientContext, TlsSettings settings) {
        this.serverContext = serverContext;
        this.clientContext = clientContext;
        this.settings = settings;
    }

    @Override
    public SSLEngine client() {
        return configured(clientContext.createSSLEngine(), true);
    }

    @Override
    public SSLEngine server() {
        return configured(serverContext.createSSLEngine(), false);
    }

    private SSLEngine configured(SSLEngine engine, boolean client) {
        engine.setUseClientMode(client);
        return settings.applyTo(engine);
    }

    @Override
    public void release(SSLEngine engine) {
        // the GC's
    }

    @Override
    public void close() {
        // nothing native
    }
}
