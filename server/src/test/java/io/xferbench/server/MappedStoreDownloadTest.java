package io.xferbench.server;

import static io.xferbench.core.testing.MappedStores.assumeStoresAfterWritebackMoveCtime;
import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.server.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A served file rewritten in place through a shared mapping, twice to one page, is never announced with the checksum
 * of the first store: natively and over HTTP, on every model (the records are {@code DataDirectory}'s, shared by all;
 * {@code MappedStoreRecordTest} has the restart).
 */
@Timeout(120)
class MappedStoreDownloadTest {
    private static final int SIZE = 64 * 1024;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void theSecondStoreToADirtyPageIsAnnouncedWithItsOwnChecksum(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path data = Files.createDirectories(tmp.resolve("data"));
        assumeStoresAfterWritebackMoveCtime(data);
        HttpClient http = HttpClient.newHttpClient();
        try (XferServer server = XferServer.start(ServerConfig.loopback(data).withIoModel(model));
             XferConnection conn = XferConnection.open("127.0.0.1", server.port(), "")) {
            storeTwice(data.resolve("native.bin"), () -> nativeDownload(conn, "native.bin"));
            storeTwice(data.resolve("http.bin"), () -> httpGet(http, server.port(), "http.bin"));
        } finally {
            http.close();
        }
    }

    interface Download {
        /** The CRC32C announced for the name, once checked against the bytes received. */
        int announced() throws Exception;
    }

    /** Served (recorded), stored to, served (recorded with the page dirty), stored to the same page again, served. */
    private static void storeTwice(Path file, Download download) throws Exception {
        byte[] bytes = new byte[SIZE];
        new Random(file.hashCode()).nextBytes(bytes);
        Files.write(file, bytes);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            assertThat(download.announced()).isEqualTo(crc(file));
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_WRITE, 0, SIZE);
            map.put(0, (byte) (bytes[0] + 1));
            assertThat(download.announced()).isEqualTo(crc(file));
            map.put(1, (byte) (bytes[1] + 1));
            assertThat(download.announced()).as("after the second store to the dirty page").isEqualTo(crc(file));
        }
    }

    private static int nativeDownload(XferConnection conn, String name) throws Exception {
        DownloadResult r = conn.download(new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0));
        assertThat(r.verified()).as("%s verifies against the announced CRC32C: %s", name, r).isTrue();
        return r.actualCrc32c();
    }

    private static int httpGet(HttpClient http, int port, String name) throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + name)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).isEqualTo(200);
        int announced = Integer.parseUnsignedInt(r.headers().firstValue("X-Xferbench-Crc32c").orElseThrow(), 16);
        CRC32C crc = new CRC32C();
        crc.update(r.body());
        assertThat((int) crc.getValue()).as("%s's body against X-Xferbench-Crc32c", name).isEqualTo(announced);
        return announced;
    }

    private static int crc(Path file) throws Exception {
        CRC32C c = new CRC32C();
        c.update(Files.readAllBytes(file));
        return (int) c.getValue();
    }
}
