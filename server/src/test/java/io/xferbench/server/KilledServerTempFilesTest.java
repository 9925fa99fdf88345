package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.config.ServerConfig;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** kill -9 of a real server mid-upload leaves its temp file; the next start removes it and nothing else. */
@Timeout(120)
class KilledServerTempFilesTest {

    @TempDir
    Path dataDir;

    @Test
    void aRestartRemovesWhatAKilledServerLeft() throws Exception {
        Path keep = Files.writeString(dataDir.resolve("user-file.bin"), "mine");
        Path keepHidden = Files.writeString(dataDir.resolve(".tmpish"), "not the server's pattern");
        try (ServerProcess started = ServerProcess.start(dataDir)) {
            Process server = started.process;
            int port = started.port;
            long size = 64 * Sizes.MiB;
            try (SocketChannel upload = SocketChannel.open(new java.net.InetSocketAddress("127.0.0.1", port))) {
                Frames.writeFully(upload, RequestCodec.encode(new Request(Op.UPLOAD, "stream", "big.bin", "", size, 0,
                        Flags.VERIFY_CRC32C, 0)));
                ResponseCodec.readUploadReady(upload);
                Frames.writeFully(upload, ByteBuffer.allocate(8 * (int) Sizes.MiB));   // a part of the body, then silence
                MalformedRequestStormTest.waitUntil(() -> tempFiles().stream().anyMatch(p -> sizeOf(p) > 0), "the upload's temp file");
                server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
        List<Path> left = tempFiles();
        assertThat(left).as("kill -9 leaves the temp file").isNotEmpty();

        try (XferServer restarted = XferServer.start(ServerConfig.loopback(dataDir))) {
            assertThat(tempFiles()).isEmpty();
            assertThat(keep).exists();
            assertThat(keepHidden).exists();
            try (XferConnection c = XferConnection.open("127.0.0.1", restarted.port(), "")) {
                TestFile f = restarted.data().generated(1000);
                assertThat(c.download(Request.download("transfer-to", f.size(), Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }

    private List<Path> tempFiles() {
        return TempFileNames.in(dataDir).stream().map(n -> dataDir.resolve(DataDirectory.UPLOADS).resolve(n)).toList();
    }

    private static long sizeOf(Path p) {
        try {
            return Files.size(p);
        } catch (Exception e) {
            return 0;
        }
    }
}
