package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.OpenedFile;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.UploadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every name the server's NAME_MAX check lets through can be uploaded: names of 255 bytes, ASCII and multi-byte UTF-8,
 * land verified on every model (their temp file's name, longer than the name itself, once did not fit: ENAMETOOLONG).
 */
@Timeout(120)
class LongNameUploadTest {
    /** 255 bytes of ASCII; 255 bytes of 3-byte characters; 4-byte characters (surrogate pairs in Java) then ASCII. */
    static final String[] NAMES = {"n".repeat(255), "\u20ac".repeat(85), "\ud83d\ude00".repeat(63) + "abc"};

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void namesOfNameMaxBytesUploadOnEveryModel(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        TestFile body = new DataDirectory(tmp.resolve("bodies")).generated(100_003);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            for (String name : NAMES) {
                assertThat(name.getBytes(StandardCharsets.UTF_8).length).isEqualTo(255);
                UploadResult up = c.upload(Request.upload("stream", name, 0, 0, Flags.VERIFY_CRC32C, 0), body);
                assertThat(up.failure()).as(model + " " + name).isNull();
                assertThat(up.verified()).isTrue();
                assertThat(UploadIntegrationTest.crc32c(dataDir.resolve(name))).as("landed").isEqualTo(body.crc32c());
                DownloadResult down = c.download(new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0));
                assertThat(down.verified()).as(down.failure()).isTrue();
                assertThat(down.bytes()).isEqualTo(body.size());
            }
        }
        assertThat(TempFileNames.in(dataDir)).isEmpty();
    }

    /**
     * A file over 1 MiB gets a checksum record on disk (smaller ones are only remembered): for a 255-byte name too,
     * whose {@code .NAME.crc32c} would not fit in NAME_MAX (writing it failed, and reading it failed the download with
     * ENAMETOOLONG). After a download the next one is served from the record, not hashed, and a directory opened
     * afresh finds the record file; DELETE removes it.
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void largeFilesOfLongNamesAreServedFromTheirRecordOnEveryModel(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        TestFile body = new DataDirectory(tmp.resolve("bodies")).generated(Sizes.MiB + 1);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            for (String name : NAMES) {
                UploadResult up = c.upload(Request.upload("stream", name, 0, 0, Flags.VERIFY_CRC32C, 0), body);
                assertThat(up.verified()).as(up.failure()).isTrue();
                Request download = new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0);
                for (int round = 1; round <= 2; round++) {
                    DownloadResult down = c.download(download);
                    assertThat(down.verified()).as(model + " download " + round + ": " + down.failure()).isTrue();
                    // What the event loops ask before they hash a file on the pool, and the threads' first step.
                    try (OpenedFile recorded = server.data().openExistingIfRecorded(name)) {
                        assertThat(recorded).as("the next download is served from the record, not hashed").isNotNull();
                        assertThat(recorded.crc32c()).isEqualTo(body.crc32c());
                    }
                }
                try (DataDirectory afresh = new DataDirectory(dataDir);
                     OpenedFile recorded = afresh.openExistingIfRecorded(name)) {
                    assertThat(recorded).as("the record file is there").isNotNull();
                }
                c.delete(name);
            }
        }
        try (Stream<Path> left = Files.list(dataDir)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("records deleted with their files").containsOnly(DataDirectory.UPLOADS);
        }
    }
}
