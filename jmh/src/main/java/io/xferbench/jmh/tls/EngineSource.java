package io.xferbench.jmh.tls;

import javax.net.ssl.SSLEngine;

/** One provider's engines, every one set to TLS 1.3 and the source's cipher suite, both ends trusting one certificate. */
public interface EngineSource extends AutoCloseable {
    /** A fresh client engine (no peer host: nothing to resume, every handshake a full one). */
    SSLEngine client();

    SSLEngine server();

    /** Frees an engine's native state (OpenSSL's); nothing to do for the JDK's. */
    void release(SSLEngine engine);

    /** Frees the contexts; engines already made are released each on its own. */
    @Override
    void close();
}
