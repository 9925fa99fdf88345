package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generating a test file on a disk that fills up exactly: whichever step runs out of space (the data, or the
 * checksum record after the data filled the disk to the byte), the client hears NO_SPACE and the file system gets
 * back every byte it had before the request. The check before writing ({@link GenerationSpaceCheckTest}) would refuse
 * both at once, so here it is told there is room: the writes run out as when another writer fills the disk meanwhile.
 */
class GenerationDiskFullTest {
    @TempDir
    Path tmp;
    Path mount;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        mount = SmallTmpfs.mount(tmp);
    }

    @AfterEach
    void unmount() throws Exception {
        SmallTmpfs.unmount(mount);
    }

    @Test
    void aGenerationThatFillsTheDiskLeavesNothingBehind() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(mount), new FreeSpace(dir -> Long.MAX_VALUE));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            long free = Files.getFileStore(mount).getUsableSpace();
            // Exactly the free space: the data fits to the byte, then its checksum record cannot be written.
            // One page more: the data itself does not fit.
            for (long size : new long[] {free, free + 4096}) {
                assertThatThrownBy(() -> c.download(Request.download("transfer-to", size, Flags.VERIFY_CRC32C, 0)))
                        .as("generating %d bytes with %d free", size, free)
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.NO_SPACE));
                assertThat(Files.getFileStore(mount).getUsableSpace()).as("space after a failed %d-byte generation", size)
                        .isEqualTo(free);
                try (Stream<Path> files = Files.list(mount)) {
                    assertThat(files).isEmpty();
                }
            }
            assertThat(c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }
}
