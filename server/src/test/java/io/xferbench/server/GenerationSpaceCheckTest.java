package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.FreeSpace;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A generated file larger than the usable space is refused NO_SPACE before a byte is written, with the size needed
 * and the space usable in the message, on every model; the usable space is a stand-in's, so no disk is filled.
 */
@Timeout(120)
class GenerationSpaceCheckTest {
    static final long USABLE = 10 * Sizes.MiB;

    @TempDir
    Path dataDir;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void aGenerationThatCannotFitIsRefusedBeforeWriting(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        long size = 16 * Sizes.MiB;
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model), new FreeSpace(dir -> USABLE));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            Request download = Request.download("transfer-to", size, Flags.VERIFY_CRC32C, 0);
            for (ThrowingCallable asked : new ThrowingCallable[] {() -> c.download(download), () -> c.prepare(download)}) {
                assertThatThrownBy(asked).isInstanceOfSatisfying(RemoteException.class, e -> {
                    assertThat(e.status()).as(e.getMessage()).isEqualTo(Status.NO_SPACE);
                    assertThat(e.reason()).contains("does not fit", size + " bytes", USABLE + " bytes usable");
                });
                try (Stream<Path> files = Files.list(dataDir)) {
                    assertThat(files).as("nothing written").isEmpty();
                }
            }
            // What fits is generated, on the same connection.
            assertThat(c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }
}
