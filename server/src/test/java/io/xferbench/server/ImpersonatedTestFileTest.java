package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.GeneratedChecksums;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client checks a generated file against the generator, not against the server's word: a file of the generated
 * name and size but other bytes (an upload to that name, say) must not be reported verified.
 */
class ImpersonatedTestFileTest {
    private static final int SIZE = 4096;

    @TempDir
    Path tmp;

    @Test
    void aGeneratedFilesChecksumIsTheGeneratorsOwn() throws Exception {
        TestFile file = new DataDirectory(tmp).generated(SIZE);
        assertThat(GeneratedChecksums.of(SIZE)).isEqualTo(file.crc32c());
        assertThat(GeneratedChecksums.of(0)).isZero();
    }

    @Test
    void anImpostorAtTheGeneratedNameIsNotVerified() throws Exception {
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        Path zeros = Files.write(tmp.resolve("zeros"), new byte[SIZE]);
        CRC32C crc = new CRC32C();
        crc.update(new byte[SIZE]);
        TestFile impostor = new TestFile(zeros, SIZE, (int) crc.getValue());
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            // An upload of zeros to the generated name: stored, verified, and its checksum recorded by the server.
            assertThat(c.upload(Request.upload("transfer-from", DataDirectory.generatedName(SIZE), SIZE, impostor.crc32c(),
                    Flags.VERIFY_CRC32C, 0), impostor).verified()).isTrue();
            DownloadResult r = c.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0));
            assertThat(r.verified()).isFalse();
            assertThat(r.failure()).contains("CRC32C mismatch");
        }
    }
}
