package io.xferbench.twin;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.uring.UringDepth;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two sides of the upload twin write the same bytes: the C sendfile feeder sends a file of an odd size to the C
 * receiver ({@code xfer_uring_twin uring-recv-write}) and to the Java one ({@link TwinReceive} with core's
 * io-uring-recv-write), and both targets must equal the source byte for byte, with the CRC32C each receiver reports.
 * The C programs are built here with gcc and liburing (skipped with the reason when missing; failed instead under
 * XFERBENCH_REQUIRE_ALL_METHODS=1, where .ci/run installs them).
 */
class UploadTwinReceiversTest {
    private static final int BUFFER = 64 * 1024;
    private static final int DEPTH = 3;

    @TempDir
    static Path dir;
    private static int depthBefore;

    @BeforeAll
    static void depth() {
        depthBefore = UringDepth.get();
        UringDepth.set(DEPTH); // the Java side's buffers, as TwinReceive --io-uring-depth sets them
    }

    @AfterAll
    static void restoreDepth() {
        UringDepth.set(depthBefore);
    }

    /** Sizes around the buffer and its multiples, so partial last chunks and a 1-byte body are covered. */
    @ParameterizedTest
    @ValueSource(longs = {0, 1, 65_535, 65_537, 3 * 65_536 + 4097, 5 * 1024 * 1024 + 13})
    void cAndJavaReceiversWriteTheSourceByteForByte(long size) throws Exception {
        ReceiverMethod method = UploadMethods.byId("io-uring-recv-write").orElseThrow();
        MethodAssumptions.assumeAvailable(method.id(), method.availability());
        Path plainTwin = TwinBinaries.built(dir, "xfer_twin.c", "xfer_twin");
        Path uringTwin = TwinBinaries.built(dir, "xfer_uring_twin.c", "xfer_uring_twin", "-luring");

        Path source = dir.resolve("source-" + size + ".bin");
        byte[] bytes = new byte[(int) size];
        new Random(size).nextBytes(bytes);
        Files.write(source, bytes);
        String sourceCrc = UploadRounds.crc32c(source, size);
        SendfileFeeder feeder = new SendfileFeeder(plainTwin.toString(), source);

        Path cTarget = dir.resolve("c-" + size + ".bin");
        CReceiver c = new CReceiver(uringTwin.toString(), TwinModes.UPLOAD_BY_METHOD.get(method.id()), cTarget, BUFFER, size, DEPTH);
        feeder.send(c.arm(), size);
        Map<String, String> cResult = c.result();
        assertThat(cResult).containsEntry("mode", "uring-recv-write").containsEntry("bytes", Long.toString(size))
                .containsEntry("crc32c", sourceCrc);
        assertThat(Files.mismatch(source, cTarget)).as("C target vs source").isEqualTo(-1L);

        Path javaTarget = dir.resolve("java-" + size + ".bin");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            CompletableFuture<TwinReceive.Received> received = CompletableFuture.supplyAsync(() -> {
                try {
                    return TwinReceive.receiveOnce(method, new TransferOptions(BUFFER, false), server, javaTarget, port);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            feeder.send(port, size);
            TwinReceive.Received r = received.get(60, TimeUnit.SECONDS);
            assertThat(r.bytes()).isEqualTo(size);
            assertThat(String.format("%08x", r.crc32c())).isEqualTo(sourceCrc);
        }
        assertThat(Files.mismatch(source, javaTarget)).as("Java target vs source").isEqualTo(-1L);
    }
}
