package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.GeneratedChecksums;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.data.UploadTemp;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A generated file's name is the server's: no client uploads over it or deletes it, on any model. And a client checks
 * a generated file against the generator, not against the server's word: a file of the generated name and size but
 * other bytes (one an older server took as an upload, say) must not be reported verified.
 */
@Timeout(120)
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

    /**
     * An upload to a generated name, existing or not yet generated, and a DELETE of one are FORBIDDEN on every model,
     * and the connection goes on: the downloads of those sizes verify. The upload was stored and its checksum recorded,
     * so the file was served as generated and never written anew: every later download of that size failed.
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void generatedNamesAreRefusedToUploadsAndDeletesOnEveryModel(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        TestFile impostor = zeros(SIZE);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            server.data().generated(SIZE);
            for (int size : new int[] {SIZE, SIZE + 1}) {
                String name = DataDirectory.generatedName(size);
                TestFile body = new TestFile(impostor.path(), size, size == SIZE ? impostor.crc32c() : 0);
                assertForbidden(() -> c.upload(Request.upload("stream", name, size, body.crc32c(), Flags.VERIFY_CRC32C, 0), body), name);
                assertForbidden(() -> c.delete(name), name);
                DownloadResult r = c.download(Request.download("transfer-to", size, Flags.VERIFY_CRC32C, 0));
                assertThat(r.verified()).as(model + " " + name + ": " + r.failure()).isTrue();
            }
        }
    }

    @Test
    void anImpostorAtTheGeneratedNameIsNotVerified() throws Exception {
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        CRC32C crc = new CRC32C();
        crc.update(new byte[SIZE]);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            // Placed and recorded as an upload was before generated names were refused (an older server's).
            DataDirectory data = server.data();
            Path target = data.root().resolve(DataDirectory.generatedName(SIZE));
            try (UploadTemp temp = data.createUploadTemp(target)) {
                temp.channel().write(ByteBuffer.wrap(new byte[SIZE]), 0);
                data.placeUpload(temp, target, false);
                data.recordPlaced(temp, target, SIZE, (int) crc.getValue());
            }
            DownloadResult r = c.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0));
            assertThat(r.verified()).isFalse();
            assertThat(r.failure()).contains("CRC32C mismatch");
        }
    }

    /** {@code size} zero bytes, in a file with one more for an upload of {@code size + 1} (refused before its body). */
    private TestFile zeros(int size) throws Exception {
        Path zeros = Files.write(tmp.resolve("zeros"), new byte[size + 1]);
        CRC32C crc = new CRC32C();
        crc.update(new byte[size]);
        return new TestFile(zeros, size, (int) crc.getValue());
    }

    private static void assertForbidden(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String name) {
        assertThatThrownBy(call).isInstanceOfSatisfying(RemoteException.class, e -> {
            assertThat(e.status()).as(e.getMessage()).isEqualTo(Status.FORBIDDEN);
            assertThat(e.reason()).isEqualTo(name + ": the name of a generated test file, reserved for the server");
        });
    }
}
