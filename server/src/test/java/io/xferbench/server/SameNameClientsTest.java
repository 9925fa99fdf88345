package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.Sizes;
import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.testing.TempFileNames;
import io.xferbench.server.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two clients at once on one name, per I/O model, many rounds at small sizes: upload against upload (different
 * contents), upload against DELETE, upload against download (native and HTTP GET), DELETE against DELETE. Whatever the interleaving, the
 * name holds one whole body with its own checksum (a download verifies and is one of the two), a download is the whole
 * old or the whole new file, exactly one DELETE wins, and no temp file is left.
 */
@Timeout(300)
class SameNameClientsTest {
    /** 10 in the suite (~5 s for the 7 models); -Dxferbench.sameName.rounds=400 by hand. */
    private static final int ROUNDS = Integer.getInteger("xferbench.sameName.rounds", 10);
    private static final String NAME = "same.dat";

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.xferbench.server.IoModelTest#everyModel")
    void twoClientsOnOneName(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        DataDirectory client = new DataDirectory(tmp.resolve("client"));
        TestFile a = client.generated(3000);                 // its checksum recorded in memory
        TestFile b = client.generated(Sizes.MiB + 4096);     // over 1 MiB: recorded in a record file
        Set<Integer> bodies = Set.of(a.crc32c(), b.crc32c());
        Path data = tmp.resolve("data");
        ExecutorService two = Executors.newFixedThreadPool(2);
        HttpClient http = HttpClient.newHttpClient();
        try (XferServer server = XferServer.start(ServerConfig.loopback(data).withIoModel(model));
             XferConnection one = XferConnection.open("127.0.0.1", server.port(), "");
             XferConnection other = XferConnection.open("127.0.0.1", server.port(), "");
             XferConnection check = XferConnection.open("127.0.0.1", server.port(), "")) {
            CyclicBarrier start = new CyclicBarrier(2);
            for (int round = 0; round < ROUNDS; round++) {
                // upload + upload: one of the two, whole, with its own checksum.
                both(two, start, () -> upload(one, a), () -> upload(other, b));
                assertThat(stored(check)).as("upload+upload, round %d", round).isIn(bodies);

                // upload + download of the old file: the whole old or the whole new one.
                TestFile next = round % 2 == 0 ? a : b;
                Object[] got = both(two, start, () -> upload(one, next), () -> stored(other));
                assertThat((Integer) got[1]).as("download racing an upload, round %d", round).isIn(bodies);
                assertThat(stored(check)).isEqualTo(next.crc32c());

                // upload + HTTP GET: the same, told by the CRC32C header and checked against the body.
                TestFile then = round % 2 == 0 ? b : a;
                Object[] viaHttp = both(two, start, () -> upload(one, then), () -> storedOverHttp(http, server.port()));
                assertThat((Integer) viaHttp[1]).as("HTTP GET racing an upload, round %d", round).isIn(bodies);

                // upload + DELETE: absent, or the upload whole.
                both(two, start, () -> upload(one, a), () -> deleted(other));
                Integer after = storedOrAbsent(check);
                assertThat(after).as("upload+DELETE, round %d", round).isIn(a.crc32c(), null);
                if (after == null) {
                    upload(check, b);
                }

                // DELETE + DELETE: one OK, one NOT_FOUND.
                Object[] dd = both(two, start, () -> deleted(one), () -> deleted(other));
                assertThat(new boolean[] {(Boolean) dd[0], (Boolean) dd[1]}).as("DELETE+DELETE, round %d", round)
                        .containsExactlyInAnyOrder(true, false);
                assertThat(check.stat(NAME).exists()).isFalse();
            }
            assertThat(TempFileNames.in(data)).isEmpty();
        } finally {
            http.close();
            two.shutdownNow();
            two.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private static Object[] both(ExecutorService two, CyclicBarrier start, Callable<?> x, Callable<?> y) throws Exception {
        Future<?> fx = two.submit(() -> {
            start.await();
            return x.call();
        });
        Future<?> fy = two.submit(() -> {
            start.await();
            return y.call();
        });
        return new Object[] {fx.get(30, TimeUnit.SECONDS), fy.get(30, TimeUnit.SECONDS)};
    }

    private static Object upload(XferConnection c, TestFile body) throws Exception {
        return c.upload(new Request(Op.UPLOAD, "stream", NAME, "", body.size(), body.crc32c(), Flags.VERIFY_CRC32C, 0), body);
    }

    /** The CRC32C of the whole body a download of the name got, once it verified against the server's record. */
    private static int stored(XferConnection c) throws Exception {
        DownloadResult r = c.download(new Request(Op.DOWNLOAD, "transfer-to", NAME, "", 0, 0, Flags.VERIFY_CRC32C, 0));
        assertThat(r.verified()).as("a download of %s verifies: %s", NAME, r).isTrue();
        return r.actualCrc32c();
    }

    /** The same over HTTP: the body's CRC32C, once it matched the one the server announced. */
    private static int storedOverHttp(HttpClient http, int port) throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + NAME)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).isEqualTo(200);
        CRC32C crc = new CRC32C();
        crc.update(r.body());
        int announced = Integer.parseUnsignedInt(r.headers().firstValue("X-Xferbench-Crc32c").orElseThrow(), 16);
        assertThat((int) crc.getValue()).as("the body against X-Xferbench-Crc32c").isEqualTo(announced);
        return announced;
    }

    private static Integer storedOrAbsent(XferConnection c) throws Exception {
        try {
            return stored(c);
        } catch (RemoteException e) {
            assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
            return null;
        }
    }

    /** @return true when this DELETE removed the file, false when it was told NOT_FOUND */
    private static boolean deleted(XferConnection c) throws Exception {
        try {
            c.delete(NAME);
            return true;
        } catch (RemoteException e) {
            assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
            return false;
        }
    }
}
