package io.xferbench.jmh;

import io.xferbench.jmh.tls.EnginePair;
import io.xferbench.jmh.tls.EngineSource;
import io.xferbench.jmh.tls.TlsProviders;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Full TLS 1.3 handshakes per second per {@code provider}, in memory ({@link EnginePair}). One op = a new client and a
 * new server engine, the whole handshake between them (key exchange, the server's certificate and signature, the
 * client's check of it, both Finished, the server's session ticket read by the client), and both engines released.
 * The client engines have no peer host, so there is no session to resume: every op is a full handshake. The
 * certificate is the run's self-signed one (the suite's TLS material), so its key type sets the signature's cost.
 * {@code @Setup} checks one handshake's protocol and suite; an unavailable provider is "SKIPPED: " with the reason.
 */
public class TlsHandshakeBenchmark extends AbstractBenchmark {
    /** {@link TlsProviders#all()}. */
    @Param({"jdk", "openssl"})
    public String provider;

    /** The suite barely moves a handshake's cost; BoringSSL's own choice, so that both providers have a row. */
    @Param({"TLS_AES_128_GCM_SHA256"})
    public String cipher;

    private EngineSource engines;
    private final EnginePair.Wire wire = new EnginePair.Wire();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        String refused = TlsProviders.unavailableReason(provider);
        if (refused != null) {
            throw new IllegalStateException("SKIPPED: " + provider + " is unavailable here: " + refused);
        }
        engines = TlsProviders.open(provider, cipher);
        SSLEngine client = engines.client();
        SSLEngine server = engines.server();
        try {
            EnginePair pair = new EnginePair(client, server, wire);
            pair.handshake();
            TlsProviders.requireNegotiated(pair, provider, cipher);
        } finally {
            engines.release(client);
            engines.release(server);
        }
    }

    @Benchmark
    public SSLEngine handshake() throws SSLException {
        SSLEngine client = engines.client();
        SSLEngine server = engines.server();
        try {
            new EnginePair(client, server, wire).handshake();
        } finally {
            engines.release(client);
            engines.release(server);
        }
        return client;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (engines != null) {
            engines.close();
        }
    }
}
