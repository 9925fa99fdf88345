package io.xferbench.client.load.fileops;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.client.load.engine.LoadEngine;
import io.xferbench.client.load.engine.LoadPlan;
import io.xferbench.client.load.engine.LoadResult;
import io.xferbench.client.load.engine.Workload;
import io.xferbench.client.load.exchange.Exchange;
import io.xferbench.client.load.exchange.HttpGetExchange;
import io.xferbench.client.load.exchange.NativeDeleteExchange;
import io.xferbench.client.load.exchange.NativeDownloadExchange;
import io.xferbench.client.load.exchange.NativeStatExchange;
import io.xferbench.client.load.exchange.NativeUploadExchange;
import io.xferbench.core.data.ContentGenerator;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Uploads, deletes and the mix against a real xferbench server: every upload landed, every delete true, nothing left. */
@Timeout(120)
class FileOpsLoadTest {
    private static final int FILE = 50 * 1024;
    private static final int CRC = new ContentGenerator(DataDirectory.SEED).crc32c(FILE);

    @TempDir
    Path dataDir;

    private static LoadPlan byCount(XferServer server, int connections, long requests) {
        return new LoadPlan(new InetSocketAddress("127.0.0.1", server.port()), connections, 2, requests, null, Duration.ZERO, 0,
                Duration.ofSeconds(30));
    }

    private static Workload workload(FileOpsWorkload.Kind kind, CreatedFiles created) {
        return new FileOpsWorkload(kind, "t", new NativeUploadExchange("channel-direct", FILE, ""), new NativeDeleteExchange(""),
                new NativeDownloadExchange("transfer-to", FILE, 0, "", CRC),
                new NativeStatExchange(DataDirectory.generatedName(FILE), FILE, ""), created);
    }

    private List<Path> loadFiles() throws IOException {
        try (Stream<Path> s = Files.list(dataDir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(CreatedFiles.PREFIX)).toList();
        }
    }

    @Test
    void uploadsLandVerifiedOneFilePerConnectionAndAreRemovedAfter() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            CreatedFiles created = new CreatedFiles();
            LoadResult r = LoadEngine.run(byCount(server, 20, 400), workload(FileOpsWorkload.Kind.UPLOAD, created));
            assertThat(r.errors()).isEmpty();
            assertThat(r.requests()).isEqualTo(400);
            assertThat(r.operations()).containsOnlyKeys("upload");
            assertThat(loadFiles()).hasSize(20).allSatisfy(p -> assertThat(Files.size(p)).isEqualTo(FILE));
            byte[] expected = new byte[FILE];
            new ContentGenerator(DataDirectory.SEED).fill(java.nio.ByteBuffer.wrap(expected), 0);
            assertThat(Files.readAllBytes(loadFiles().get(0))).isEqualTo(expected);
            assertThat(RemoteDeletes.delete(new InetSocketAddress("127.0.0.1", server.port()), "", created.remaining()))
                    .isEqualTo(20);
            assertThat(loadFiles()).isEmpty();
        }
    }

    @Test
    void deletesAnswerTrulyAndLeaveNothing() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            CreatedFiles created = new CreatedFiles();
            LoadResult r = LoadEngine.run(byCount(server, 10, 300), workload(FileOpsWorkload.Kind.DELETE, created));
            assertThat(r.errors()).isEmpty();
            assertThat(r.requests()).isEqualTo(300);
            // The setup uploads are not measured: only deletes count.
            assertThat(r.operations()).containsOnlyKeys("delete");
            // The count ends the run after a delete or mid-setup: at most one file per connection may remain listed.
            assertThat(created.remaining()).hasSizeLessThanOrEqualTo(10);
            RemoteDeletes.delete(new InetSocketAddress("127.0.0.1", server.port()), "", created.remaining());
            assertThat(loadFiles()).isEmpty();
        }
    }

    @Test
    void theMixRunsEveryOperationInItsRatio() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            server.data().generated(FILE);
            CreatedFiles created = new CreatedFiles();
            LoadResult r = LoadEngine.run(byCount(server, 10, 2000), workload(FileOpsWorkload.Kind.MIX, created));
            assertThat(r.errors()).isEmpty();
            assertThat(r.operations()).containsOnlyKeys("download", "upload", "exist", "delete");
            assertThat(r.operations().get("download").requests()).isBetween(1150L, 1250L);
            assertThat(r.operations().get("exist").requests()).isBetween(370L, 430L);
            assertThat(r.operations().get("upload").requests()).isBetween(180L, 220L);
            assertThat(r.operations().get("delete").requests()).isBetween(180L, 220L);
            RemoteDeletes.delete(new InetSocketAddress("127.0.0.1", server.port()), "", created.remaining());
            assertThat(loadFiles()).isEmpty();
        }
    }

    @Test
    void refusedUploadsAreCountedByStatusPerOperation() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withMaxUpload(FILE - 1))) {
            LoadResult r = LoadEngine.run(byCount(server, 2, 20), workload(FileOpsWorkload.Kind.UPLOAD, new CreatedFiles()));
            assertThat(r.requests()).isZero();
            assertThat(r.errors()).containsOnlyKeys("TOO_LARGE");
            assertThat(r.operations().get("upload").errors()).containsEntry("TOO_LARGE", 20L);
            assertThat(loadFiles()).isEmpty();
        }
    }

    @Test
    void httpUploadsToTheXferbenchServerAreRefusedCleanlyAsASkippedRow() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir))) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
            Exchange get = new HttpGetExchange("127.0.0.1:" + server.port(), "/" + DataDirectory.generatedName(FILE), false, FILE, CRC);
            FileOpsRun.Outcome o = FileOpsRun.run(new LoadPlan(address, 2, 1, 10, null, Duration.ZERO, 0, Duration.ofSeconds(10)),
                    FileOpsRun.Wire.overHttp(), FileOpsWorkload.Kind.UPLOAD, FILE, CRC, "refused", get, get,
                    LoadEngine.WindowObserver.NONE);
            assertThat(o.result()).isNull();
            assertThat(o.skipped()).startsWith("the server refused a probe PUT (http 4");
            assertThat(loadFiles()).isEmpty();
        }
    }
}
