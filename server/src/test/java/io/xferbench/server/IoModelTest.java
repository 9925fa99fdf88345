package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every I/O model serves every download and upload method verified, on connections that go on serving afterwards,
 * uploads land by rename, and a delete racing a download gives the whole old file or a clean NOT_FOUND; what differs
 * is the platform threads 200 held connections cost.
 */
@Timeout(120)
public class IoModelTest {
    private static final int CLIENTS = 200;

    @TempDir
    Path dataDir;

    private static int platformThreads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** Every I/O model, the pooled one with a small pool: the source of the tests that must hold on each. */
    static Stream<String> everyModel() {
        return Stream.of("platform", "virtual", "virtual+pool:2", "netty-epoll", "netty-io-uring", "netty-epoll-inline",
                "netty-io-uring-inline");
    }

    /** Skips (or, in CI, fails) a model this machine cannot run (an event-loop model whose transport it lacks). */
    public static void assumeModelRuns(String model) {
        MethodAssumptions.assumeAvailable(model, ServerModels.byId(model).orElseThrow().availability().get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual", "virtual+pool:4", "netty-epoll", "netty-io-uring", "netty-epoll-inline", "netty-io-uring-inline"})
    void everyMethodVerifiesOnManyHeldConnections(String model) throws Exception {
        assumeModelRuns(model);
        // A threaded model refuses the event loops' own methods (ModelRunsMethodAskedTest); the loops run every one.
        List<String> methods = (model.startsWith("netty-") ? DownloadMethods.all() : DownloadMethods.blocking()).stream()
                // TLS methods need the client's TLS session: TlsDownloadTest and ModelRunsMethodAskedTest serve them.
                .filter(m -> m.availability().isAvailable()).filter(m -> !m.traits().tls()).map(SenderMethod::id).toList();
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withMaxConnections(CLIENTS + 8))) {
            server.data().generated(100_000);
            int before = platformThreads();
            long startedBefore = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
            List<XferConnection> held = new ArrayList<>();
            try {
                for (int i = 0; i < CLIENTS; i++) {
                    XferConnection c = XferConnection.open("127.0.0.1", server.port(), "");
                    c.control(Op.INFO);   // served: it has its thread, now idle waiting for the next request
                    held.add(c);
                }
                // Platform threads started, not live: an earlier test's server finishing its threads meanwhile must
                // not hide one of these (it did: 199 of 200).
                long added = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - startedBefore;
                if (model.equals("platform")) {
                    assertThat(added).as("a platform thread per held connection").isGreaterThanOrEqualTo(CLIENTS);
                } else {
                    assertThat(added).as("idle virtual threads hold no platform thread").isLessThan(CLIENTS / 4);
                }
                // Uploads with every receiver, each on a connection that then serves a download.
                TestFile body = new io.xferbench.core.data.DataDirectory(dataDir.resolve("bodies")).generated(100_001);
                List<String> receivers = UploadMethods.all().stream().filter(m -> m.availability().isAvailable())
                        .map(ReceiverMethod::id).toList();
                for (int i = 0; i < receivers.size(); i++) {
                    String receiver = receivers.get(i);
                    assertThat(held.get(i).upload(Request.upload(receiver, "up-" + receiver + ".bin", 0, 0, Flags.VERIFY_CRC32C, 0), body)
                            .verified()).as(model + " upload " + receiver).isTrue();
                    // Landed by rename: the named file holds the body, and no temp file is left beside it.
                    assertThat(UploadIntegrationTest.crc32c(dataDir.resolve("up-" + receiver + ".bin"))).isEqualTo(body.crc32c());
                }
                assertThat(tempFiles()).as(model + ": temp files left").isEmpty();
                for (int i = 0; i < held.size(); i++) {
                    String method = methods.get(i % methods.size());
                    assertThat(held.get(i).download(Request.download(method, 100_000, Flags.VERIFY_CRC32C, 0)).verified())
                            .as(model + " " + method).isTrue();
                }
                if (model.startsWith("virtual+pool")) {
                    // Every transfer ran on the pool: its 4 threads, nothing per connection.
                    assertThat(platformThreads() - before).as("threads after every method ran").isLessThanOrEqualTo(4 + 32);
                }
            } finally {
                for (XferConnection c : held) {
                    c.close();
                }
            }
        }
    }

    private List<String> tempFiles() {
        return TempFileNames.in(dataDir);
    }

    /**
     * A client uploads a 2 MiB file (landed by rename) while another downloads it and a third deletes it: every
     * download is the whole file verified or a clean NOT_FOUND, and STAT says what DELETE left.
     */
    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual", "virtual+pool:4", "netty-epoll", "netty-io-uring", "netty-epoll-inline", "netty-io-uring-inline"})
    void aDeleteRacingADownloadGivesTheWholeOldFileOrNotFound(String model) throws Exception {
        assumeModelRuns(model);
        TestFile body = new io.xferbench.core.data.DataDirectory(dataDir.resolve("bodies")).generated(2 << 20);
        int rounds = 30;
        int whole = 0;
        int notFound = 0;
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             XferConnection writer = XferConnection.open("127.0.0.1", server.port(), "");
             XferConnection reader = XferConnection.open("127.0.0.1", server.port(), "");
             XferConnection deleter = XferConnection.open("127.0.0.1", server.port(), "");
             ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < rounds; round++) {
                assertThat(writer.upload(Request.upload("stream", "r.bin", 0, 0, Flags.VERIFY_CRC32C, 0), body).verified()).isTrue();
                assertThat(writer.stat("r.bin").size()).isEqualTo(body.size());
                Future<DownloadResult> download = pool.submit(() -> {
                    try {
                        return reader.download(new Request(Op.DOWNLOAD, "transfer-to", "r.bin", "", 0, 0, Flags.VERIFY_CRC32C, 0));
                    } catch (RemoteException e) {
                        assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
                        return null;
                    }
                });
                Future<?> delete = pool.submit(() -> {
                    deleter.delete("r.bin");
                    return null;
                });
                DownloadResult d = download.get();
                delete.get();
                assertThat(deleter.stat("r.bin")).isEqualTo(FileStat.ABSENT);
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
        assertThat(whole + notFound).isEqualTo(rounds);
        assertThat(tempFiles()).isEmpty();
    }

    /** A client's mistake, answered as one: BAD_REQUEST, and the connection goes on (not a server error). */
    @ParameterizedTest
    @MethodSource("everyModel")
    void anEndWithoutABeginIsRefusedAndTheConnectionGoesOn(String model) throws Exception {
        assumeModelRuns(model);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            assertThatThrownBy(() -> c.control(Op.MEASURE_END)).isInstanceOfSatisfying(RemoteException.class,
                    e -> assertThat(e.status()).as(model).isEqualTo(Status.BAD_REQUEST));
            assertThat(c.control(Op.INFO)).as(model).isNotEmpty();
        }
    }

    @Test
    void anUnknownModelIsRefusedAtStart(@TempDir Path dir) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> XferServer.start(ServerConfig.loopback(dir).withIoModel("fibers")))
                .hasMessageContaining("unknown --io-model fibers");
    }

    /**
     * The blocking models answer a body that is already here behind its header with ready and result in one write:
     * the client still reads them in order (ready, then result), a refused body and an empty one included, and the
     * connection stays in step.
     */
    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual", "virtual+pool:4"})
    void bodiesSentBehindTheirHeadersGetReadyThenResultInStep(String model) throws Exception {
        WholeBodyUploads uploads = WholeBodyUploads.of(31);
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
             SocketChannel s = SocketChannel.open(new java.net.InetSocketAddress("127.0.0.1", server.port()))) {
            uploads.send(s, "stream", "channel-direct");
            uploads.assertAnsweredAndPlaced(s, dataDir);
            assertThat(tempFiles()).isEmpty();
            s.write(RequestCodec.encode(new Request(Op.STAT, "", "whole-a.bin", "", 0, 0, 0, 0)));
            assertThat(ResponseCodec.readStat(s).size()).isEqualTo(uploads.a().length);
        }
    }
}
