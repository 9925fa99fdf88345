package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.CapturedLog;
import io.xferbench.server.config.ServerConfig;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server starting on a directory where files were removed or rewritten behind the previous one's back: the records of
 * the removed ones are swept before it serves, told in one line; the rewritten file's record is never served. The old
 * server kept every such record for good.
 */
@Timeout(60)
class RecordSweepAtStartTest {
    @TempDir
    Path dataDir;

    @Test
    void recordsOfRemovedFilesAreSweptAtStartAndARewrittenFileIsServedItsOwnChecksum() throws Exception {
        byte[] first = "first contents, 32 bytes long..".getBytes();
        byte[] second = "other contents, 32 bytes long..".getBytes();
        Path kept = Files.write(dataDir.resolve("kept.bin"), first);
        Files.createDirectories(dataDir.resolve("sub"));
        for (String name : List.of("gone.bin", "sub/moved.bin")) {
            Files.writeString(dataDir.resolve(name), "bytes of " + name);
        }
        try (DataDirectory before = new DataDirectory(dataDir)) {
            assertThat(before.existing("kept.bin").crc32c()).isEqualTo(crc(first));
            before.existing("gone.bin");
            before.existing("sub/moved.bin");
        }
        Files.delete(dataDir.resolve("gone.bin"));
        Files.move(dataDir.resolve("sub/moved.bin"), dataDir.resolve("sub/renamed.bin"));
        FileTime mtime = Files.getLastModifiedTime(kept);
        Thread.sleep(10);
        try (FileChannel c = FileChannel.open(kept, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(second), 0);
        }
        Files.setLastModifiedTime(kept, mtime);
        long recordBytes = Files.size(dataDir.resolve(".gone.bin.crc32c")) + Files.size(dataDir.resolve("sub/.moved.bin.crc32c"));

        try (CapturedLog log = CapturedLog.of(XferServer.class.getName());
             XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            assertThat(dataDir.resolve(".gone.bin.crc32c")).doesNotExist();
            assertThat(dataDir.resolve("sub/.moved.bin.crc32c")).doesNotExist();
            assertThat(dataDir.resolve(".kept.bin.crc32c")).as("its file is there").exists();
            assertThat(log.messages().stream().filter(l -> l.contains("checksum records")).toList()).containsExactly(
                    "removed 2 checksum records (" + recordBytes + " bytes) of files deleted or renamed by something other than the server");

            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                DownloadResult r = c.download(new Request(Op.DOWNLOAD, "transfer-to", "kept.bin", "",
                        0, 0, Flags.VERIFY_CRC32C, 0));
                assertThat(r.verified()).isTrue();
                assertThat(r.expectedCrc32c()).as("announced").isEqualTo(crc(second));
            }
        }
    }

    private static int crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b);
        return (int) c.getValue();
    }
}
