package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** STAT and DELETE: truthful answers, the same path rules as downloads, and a delete racing a download. */
@Timeout(120)
public class StatDeleteTest {
    @TempDir
    Path tmp;

    private static void assertStatus(ThrowingRunnable r, Status status) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(status));
    }

    @FunctionalInterface
    public interface ThrowingRunnable {
        void run() throws Exception;
    }

    private static Request byName(String name) {
        return new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0);
    }

    @Test
    void statAndDeleteAnswerTruthfullyAndRefuseWhatDownloadsRefuse() throws Exception {
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(tmp.resolve("outside.txt"), "secret");
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            TestFile f = server.data().generated(12_345);
            String name = f.path().getFileName().toString();
            FileStat s = c.stat(name);
            assertThat(s.exists()).isTrue();
            assertThat(s.size()).isEqualTo(12_345);
            assertThat(s.mtimeNanos()).isPositive();
            assertThat(c.stat("missing.bin")).isEqualTo(FileStat.ABSENT);
            assertStatus(() -> c.stat("../outside.txt"), Status.FORBIDDEN);
            assertThat(new ProcessBuilder("mkfifo", dataDir.resolve("pipe").toString()).start().waitFor()).isZero();
            assertStatus(() -> c.stat("pipe"), Status.FORBIDDEN);
            assertStatus(() -> c.delete("pipe"), Status.FORBIDDEN);
            assertStatus(() -> c.delete("../outside.txt"), Status.FORBIDDEN);
            assertThat(tmp.resolve("outside.txt")).exists();
            // A generated file's name is the server's (ImpersonatedTestFileTest).
            assertStatus(() -> c.delete(name), Status.FORBIDDEN);
            assertThat(c.stat(name).exists()).isTrue();

            String own = "own.dat";
            Files.copy(f.path(), dataDir.resolve(own));
            assertThat(c.download(byName(own)).verified()).as("hashed and recorded").isTrue();
            assertThat(dataDir.resolve("." + own + ".crc32c")).exists();
            c.delete(own);
            assertThat(c.stat(own)).isEqualTo(FileStat.ABSENT);
            assertThat(dataDir.resolve("." + own + ".crc32c")).doesNotExist();
            assertStatus(() -> c.download(byName(own)), Status.NOT_FOUND);
            assertStatus(() -> c.delete(own), Status.NOT_FOUND);
            // Every refusal above kept the connection.
            assertThat(c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }

    /**
     * DELETE of a symbolic link removes the link, not its target; a segment over NAME_MAX is FORBIDDEN; a failure of
     * the file operation itself (a path through a regular file) is answered, and the connection goes on, on every
     * model.
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void linksLongNamesAndFailedFileOperationsAreAnsweredOnEveryModel(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(dataDir.resolve("victim.txt"), "kept");
        Files.createSymbolicLink(dataDir.resolve("link"), Path.of("victim.txt"));
        Files.writeString(dataDir.resolve("base"), "a regular file");
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            c.delete("link");
            assertThat(dataDir.resolve("link")).doesNotExist();
            assertThat(dataDir.resolve("victim.txt")).hasContent("kept");

            String tooLong = "n".repeat(256);
            assertStatus(() -> c.stat(tooLong), Status.FORBIDDEN);
            assertStatus(() -> c.delete(tooLong), Status.FORBIDDEN);
            assertThat(c.stat("n".repeat(255))).isEqualTo(FileStat.ABSENT);

            assertStatus(() -> c.stat("base/x"), Status.SERVER_ERROR);
            assertStatus(() -> c.delete("base/x"), Status.SERVER_ERROR);
            assertThat(c.stat("victim.txt").exists()).as("the connection goes on").isTrue();
        }
    }

    /** A delete racing a download: the download gets the whole old file, or a clean NOT_FOUND; never a short body. */
    @Test
    void aDeleteRacingADownloadNeverYieldsAShortVerifiedBody() throws Exception {
        Path dataDir = Files.createDirectories(tmp.resolve("data"));
        TestFile body = new DataDirectory(tmp.resolve("bodies")).generated(4 << 20);
        int whole = 0;
        int notFound = 0;
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection reader = XferConnection.open("127.0.0.1", server.port(), "");
             XferConnection writer = XferConnection.open("127.0.0.1", server.port(), "");
             ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 60; round++) {
                assertThat(writer.upload(Request.upload("stream", "r.bin", 0, 0, Flags.VERIFY_CRC32C, 0), body).verified()).isTrue();
                Future<DownloadResult> download = pool.submit(() -> {
                    try {
                        return reader.download(byName("r.bin"));
                    } catch (RemoteException e) {
                        assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
                        return null;
                    }
                });
                CompletableFuture<Void> delete = CompletableFuture.runAsync(() -> {
                    try {
                        writer.delete("r.bin");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, pool);
                DownloadResult d = download.get();
                delete.get();
                if (d == null) {
                    notFound++;
                } else {
                    assertThat(d.bytes()).isEqualTo(body.size());
                    assertThat(d.verified()).as(d.failure()).isTrue();
                    assertThat(d.expectedCrc32c()).isEqualTo(body.crc32c());
                    whole++;
                }
            }
        }
        assertThat(whole + notFound).isEqualTo(60);
    }
}
