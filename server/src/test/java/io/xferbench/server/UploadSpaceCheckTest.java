package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.FreeSpace;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An upload counts the room its checksum record and the file system's metadata take, as a generation does: one that
 * fits only without that room is refused NO_SPACE before its body, on every model (it was admitted, and could run
 * out of space at its record). The usable space is a stand-in's, so no disk is filled.
 */
@Timeout(120)
class UploadSpaceCheckTest {
    static final long BODY = 4096;
    /** Exactly enough for a body of {@link #BODY} bytes and its room. */
    static final long USABLE = BODY + DataDirectory.RECORD_AND_METADATA_ROOM;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void anUploadThatFitsOnlyWithoutItsRoomIsRefusedBeforeItsBody(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        TestFile body = new DataDirectory(tmp.resolve("bodies")).generated(BODY);
        // Refused before the body, so none is read: only the declared size matters.
        TestFile oneByteMore = new TestFile(body.path(), BODY + 1, 0);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model), new FreeSpace(dir -> USABLE));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            assertThatThrownBy(() -> c.upload(Request.upload("stream", "over.dat", 0, 0, Flags.VERIFY_CRC32C, 0), oneByteMore))
                    .isInstanceOfSatisfying(RemoteException.class, e -> {
                        assertThat(e.status()).as(e.getMessage()).isEqualTo(Status.NO_SPACE);
                        assertThat(e.reason()).contains("does not fit", (BODY + 1) + " bytes",
                                DataDirectory.RECORD_AND_METADATA_ROOM + " more", USABLE + " bytes usable");
                    });
            try (Stream<Path> files = Files.list(dataDir)) {
                assertThat(files).as("nothing written").isEmpty();
            }
            // What fits with its room lands, on the same connection.
            assertThat(c.upload(Request.upload("stream", "fits.dat", 0, 0, Flags.VERIFY_CRC32C, 0), body).verified()).isTrue();
            assertThat(dataDir.resolve("fits.dat")).hasSize(BODY);
        }
    }
}
