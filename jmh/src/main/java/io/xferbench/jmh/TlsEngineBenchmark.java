package io.xferbench.jmh;

import io.xferbench.jmh.tls.EnginePair;
import io.xferbench.jmh.tls.EngineSource;
import io.xferbench.jmh.tls.TlsProviders;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import javax.net.ssl.SSLException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What TLS costs in the engine alone: a TLS 1.3 {@code SSLEngine} pair joined in memory ({@link EnginePair}: no socket,
 * no syscall), per {@code provider} × {@code cipher} × {@code size}. One op = one buffer of {@code size} application
 * bytes wrapped by the server engine (records of at most 16 KiB) and unwrapped by the client engine into another buffer,
 * so ops/s × size (the {@code MiB} counter) is what one core encrypts and decrypts per second, and {@code -prof gc}'s
 * {@code gc.alloc.rate.norm} what an op allocates. Buffers are direct, as the tls-jdk method's.
 *
 * <p>{@code @Setup} does the handshake, checks that it gave TLS 1.3 with {@code cipher}, and sends one buffer whose
 * decrypted bytes must equal the sent ones, so a pair that garbles bytes fails instead of being timed. A provider that
 * cannot load here ({@code openssl} without netty-tcnative) or cannot be given the suite (BoringSSL picks TLS 1.3 suites
 * itself) fails its {@code @Setup} with "SKIPPED: " and the reason.
 */
// Longer warm-up iterations than the base's 1 s: C2 must compile the JDK's AES-GCM and GHASH paths first. On the loaded
// 2-core machine the jdk rows climbed for ~6 s (124 → 5,575 ops/s at 16 KiB), with JIT mprotects and GC futexes per op
// until then; the openssl rows are native and flat from the start.
@Warmup(iterations = AbstractBenchmark.WARMUP_ITERATIONS, time = 3)
public class TlsEngineBenchmark extends AbstractBenchmark {
    /** {@link TlsProviders#all()}. */
    @Param({"jdk", "openssl"})
    public String provider;

    /** {@code TlsSettings.ALLOWED_CIPHERS}: the TLS 1.3 suites, as {@code --tls-cipher} takes them. */
    @Param({"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"})
    public String cipher;

    /** Application bytes per op: under one record, one full record (16 KiB), four records. */
    @Param({"1024", "16384", "65536"})
    public int size;

    private EngineSource engines;
    private EnginePair pair;
    private ByteBuffer data;
    private ByteBuffer received;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        String refused = TlsProviders.unavailableReason(provider);
        if (refused != null) {
            throw new IllegalStateException("SKIPPED: " + provider + " is unavailable here: " + refused);
        }
        if (size < 1 || size > EnginePair.MAX_SEND) {
            throw new IllegalArgumentException("size " + size + " is not within 1.." + EnginePair.MAX_SEND);
        }
        engines = TlsProviders.open(provider, cipher);
        pair = new EnginePair(engines.client(), engines.server(), new EnginePair.Wire());
        pair.handshake();
        TlsProviders.requireNegotiated(pair, provider, cipher);
        data = ByteBuffer.allocateDirect(size);
        byte[] content = new byte[size];
        new SplittableRandom(size).nextBytes(content);
        data.put(content).flip();
        // Room for every record's plaintext: the JDK refuses to unwrap into less than the record may hold.
        received = ByteBuffer.allocateDirect(size + (32 << 10));
        int got = pair.send(data, received);
        if (got != size || received.mismatch(data.clear()) != -1) {
            throw new IllegalStateException(provider + " " + cipher + ": sent " + size + " bytes, the client decrypted " + got
                    + (got == size ? " different ones" : ""));
        }
    }

    @Benchmark
    public byte wrapUnwrap(MiBCounter mib) throws SSLException {
        pair.send(data.clear(), received);
        mib.add(size);
        return received.get(size - 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (pair != null) {
            engines.release(pair.client());
            engines.release(pair.server());
        }
        if (engines != null) {
            engines.close();
        }
    }
}
