package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Frames;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.RequestCodec;
import io.xferbench.core.protocol.ResponseCodec;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A disk filled to the byte (an 8 MiB tmpfs, root only), per I/O model: two uploads admitted at once that do not fit
 * together, an upload of exactly the free space (no room for the 1 MiB reserve), a generation on the full disk; after
 * each the server still answers STAT, DELETE and downloads, and leaves no temp file.
 */
@Timeout(120)
class DiskFullEveryModelTest {
    private static final long UPLOAD = 5 * Sizes.MiB;
    private static final int ROUNDS = 8;

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

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void aFullDiskIsRefusedCleanlyAndTheServerKeepsServing(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        DataDirectory client = new DataDirectory(tmp.resolve("client"));
        TestFile body = client.generated(UPLOAD);
        try (XferServer server = XferServer.start(ServerConfig.loopback(mount).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            // (a) Both pass the free-space check while the tmpfs is empty; together they do not fit. Several rounds:
            // the event loops removed the failed one's temp file on the pool while the loop answered (a race).
            for (int round = 0; round < ROUNDS; round++) {
                try (SocketChannel first = open(server); SocketChannel second = open(server)) {
                    Frames.writeFully(first, RequestCodec.encode(upload("first.dat", body)));
                    ResponseCodec.readUploadReady(first);
                    Frames.writeFully(second, RequestCodec.encode(upload("second.dat", body)));
                    ResponseCodec.readUploadReady(second);
                    DiskFullTest.sendBody(body, first);
                    assertThat(ResponseCodec.readUploadResult(first).bytes()).isEqualTo(UPLOAD);
                    DiskFullTest.sendBodyTolerantly(body, second);
                    assertThatThrownBy(() -> ResponseCodec.readUploadResult(second))
                            .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.NO_SPACE));
                    assertThat(TempFileNames.in(mount)).as("temp files once NO_SPACE is answered, round %d", round).isEmpty();
                }
                assertThat(c.stat("second.dat").exists()).isFalse();
                assertThat(c.download(named("first.dat")).verified()).as("the first upload, whole").isTrue();
                if (round < ROUNDS - 1) {
                    c.delete("first.dat");
                }
            }

            // (b) Exactly the free space: the data would fit, its 1 MiB reserve does not; refused before the body.
            long free = Files.getFileStore(mount).getUsableSpace();
            TestFile exact = client.generated(free);
            assertThatThrownBy(() -> c.upload(upload("exact.dat", exact), exact))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.NO_SPACE));
            // (c) A generation on the full disk.
            assertThatThrownBy(() -> c.download(Request.download("transfer-to", free, Flags.VERIFY_CRC32C, 0)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.NO_SPACE));
            assertThat(Files.getFileStore(mount).getUsableSpace()).isEqualTo(free);
            assertThat(TempFileNames.in(mount)).isEmpty();

            // (d) Still serving on the same connection: STAT, a download, DELETE, then an upload that fits again.
            FileStat stat = c.stat("first.dat");
            assertThat(stat.exists()).isTrue();
            assertThat(stat.size()).isEqualTo(UPLOAD);
            assertThat(c.download(named("first.dat")).verified()).isTrue();
            c.delete("first.dat");
            assertThatThrownBy(() -> c.delete("first.dat"))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
            assertThat(c.upload(upload("again.dat", body), body).bytes()).isEqualTo(UPLOAD);
            assertThat(c.download(named("again.dat")).verified()).isTrue();
        }
    }

    /**
     * Two uploads over 1 MiB (their checksum records are files) admitted at once: the second's data fits to the byte
     * in what the first left, its record does not. Stored and verified (its checksum then stays in memory, or is
     * computed again), or refused and not placed; never told stored without being whole.
     */
    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void anUploadWhoseDataFitsButNotItsRecord(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        DataDirectory client = new DataDirectory(tmp.resolve("client"));
        TestFile first = client.generated(3 * Sizes.MiB + 1);
        long page = 4096;
        boolean secondStored;
        try (XferServer server = XferServer.start(ServerConfig.loopback(mount).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "");
             SocketChannel one = open(server);
             SocketChannel two = open(server)) {
            long free = Files.getFileStore(mount).getUsableSpace();
            long firstPages = (first.size() + page - 1) / page + 1; // its data and its record (a tmpfs directory takes none)
            TestFile second = client.generated(free - firstPages * page);
            Frames.writeFully(one, RequestCodec.encode(upload("one.dat", first)));
            ResponseCodec.readUploadReady(one);
            Frames.writeFully(two, RequestCodec.encode(upload("two.dat", second)));
            ResponseCodec.readUploadReady(two);
            DiskFullTest.sendBody(first, one);
            assertThat(ResponseCodec.readUploadResult(one).bytes()).isEqualTo(first.size());
            DiskFullTest.sendBodyTolerantly(second, two);
            String outcome;
            try {
                outcome = "stored " + ResponseCodec.readUploadResult(two).bytes();
            } catch (RemoteException e) {
                outcome = e.status() + ": " + e.getMessage();
            }
            FileStat stat = c.stat("two.dat");
            secondStored = outcome.startsWith("stored");
            if (secondStored) {
                assertThat(stat.size()).isEqualTo(second.size());
                assertThat(c.download(named("two.dat")).verified()).as("%s: stored, so it downloads verified", model).isTrue();
            } else {
                assertThat(stat.exists()).as("%s: refused (%s), so not placed", model, outcome).isFalse();
            }
            assertThat(TempFileNames.in(mount)).isEmpty();
            assertThat(c.download(named("one.dat")).verified()).isTrue();
        }
        // A restart on the full disk serves both, verified (a checksum that had no room for its record is computed).
        try (XferServer server = XferServer.start(ServerConfig.loopback(mount).withIoModel(model));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            assertThat(c.download(named("one.dat")).verified()).isTrue();
            if (secondStored) {
                assertThat(c.download(named("two.dat")).verified()).as("the upload without room for its record").isTrue();
            }
            assertThat(TempFileNames.in(mount)).isEmpty();
        }
    }

    private static SocketChannel open(XferServer server) throws IOException {
        return SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()));
    }

    private static Request named(String name) {
        return new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0);
    }

    private static Request upload(String name, TestFile body) {
        return new Request(Op.UPLOAD, "stream", name, "", body.size(), body.crc32c(), Flags.VERIFY_CRC32C, 0);
    }
}
