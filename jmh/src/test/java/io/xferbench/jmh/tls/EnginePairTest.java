package io.xferbench.jmh.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.method.Availability;
import io.xferbench.core.testing.MethodAssumptions;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link EnginePair}: every send of the benchmark's op decrypts to the bytes sent (CRC32C of each one, fresh content
 * each time, at and around the 16 KiB record edge), per provider and suite.
 */
class EnginePairTest {
    private static final int[] SIZES = {1, 1024, (16 << 10) - 1, 16 << 10, (16 << 10) + 1, 64 << 10};
    private static final int SENDS = 20;

    @ParameterizedTest
    @CsvSource({"jdk, TLS_AES_128_GCM_SHA256", "jdk, TLS_AES_256_GCM_SHA384", "jdk, TLS_CHACHA20_POLY1305_SHA256",
            "openssl, TLS_AES_128_GCM_SHA256"})
    void everySendDecryptsToTheBytesSent(String provider, String cipher) throws Exception {
        MethodAssumptions.assumeAvailable(provider, new Availability(TlsProviders.unavailableReason(provider)));
        try (EngineSource engines = TlsProviders.open(provider, cipher)) {
            EnginePair pair = new EnginePair(engines.client(), engines.server(), new EnginePair.Wire());
            try {
                pair.handshake();
                try {
                    TlsProviders.requireNegotiated(pair, provider, cipher);
                } catch (IllegalStateException e) {
                    MethodAssumptions.assumeAvailable(provider + " " + cipher, e.getMessage().startsWith("SKIPPED: ")
                            ? new Availability(e.getMessage().substring("SKIPPED: ".length())) : Availability.AVAILABLE);
                    throw e;
                }
                SplittableRandom random = new SplittableRandom(42);
                ByteBuffer received = ByteBuffer.allocateDirect((64 << 10) + (32 << 10));
                for (int size : SIZES) {
                    ByteBuffer data = ByteBuffer.allocateDirect(size);
                    byte[] content = new byte[size];
                    for (int i = 0; i < SENDS; i++) {
                        random.nextBytes(content);
                        data.clear().put(content).flip();
                        assertThat(pair.send(data, received)).as("bytes received").isEqualTo(size);
                        assertThat(data.hasRemaining()).as("all of it wrapped").isFalse();
                        assertThat(crc(received)).as(provider + " " + cipher + " " + size + " B, send " + i).isEqualTo(crc(data.flip()));
                    }
                }
            } finally {
                engines.release(pair.client());
                engines.release(pair.server());
            }
        }
    }

    /**
     * The two suites the openssl engines cannot run: BoringSSL picks TLS 1.3 suites by its own order, so a pair asked for
     * either negotiates AES-128-GCM, and the benchmark reports the row skipped with that reason (should BoringSSL ever
     * honour the request, this fails and the rows can run).
     */
    @ParameterizedTest
    @CsvSource({"TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"})
    void boringSslNegotiatesItsOwnSuiteAndTheRowSaysSo(String cipher) throws Exception {
        MethodAssumptions.assumeAvailable("openssl", new Availability(TlsProviders.unavailableReason("openssl")));
        try (EngineSource engines = TlsProviders.open("openssl", cipher)) {
            EnginePair pair = new EnginePair(engines.client(), engines.server(), new EnginePair.Wire());
            try {
                pair.handshake();
                assertThatThrownBy(() -> TlsProviders.requireNegotiated(pair, "openssl", cipher))
                        .hasMessageStartingWith("SKIPPED: ")
                        .hasMessageContaining("BoringSSL picks TLS 1.3 suites by its own order");
            } finally {
                engines.release(pair.client());
                engines.release(pair.server());
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"jdk", "openssl"})
    void tooMuchAtOnceIsRefusedBeforeAnyRecord(String provider) throws Exception {
        MethodAssumptions.assumeAvailable(provider, new Availability(TlsProviders.unavailableReason(provider)));
        try (EngineSource engines = TlsProviders.open(provider, "TLS_AES_128_GCM_SHA256")) {
            EnginePair pair = new EnginePair(engines.client(), engines.server(), new EnginePair.Wire());
            try {
                pair.handshake();
                assertThatThrownBy(() -> pair.send(ByteBuffer.allocate(EnginePair.MAX_SEND + 1), ByteBuffer.allocate(1)))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + EnginePair.MAX_SEND);
            } finally {
                engines.release(pair.client());
                engines.release(pair.server());
            }
        }
    }

    private static long crc(ByteBuffer b) {
        CRC32C crc = new CRC32C();
        crc.update(b.duplicate());
        return crc.getValue();
    }
}
