package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.TestFile;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.method.ReceiverMethod;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.registry.UploadMethods;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uploads, downloads, renames behind the server's back (same size, same mtime: what defeated size+mtime records)
 * and server restarts, mixed by four clients at once from a fixed seed: the server must never announce a checksum
 * that does not match the bytes it sends, whichever I/O model looks the record up.
 */
@Timeout(300)
class ChecksumRaceTest {
    private static final String[] NAMES = {"a.bin", "b.bin", "c.bin"};
    private static final int[] SIZES = {4096, 65_536, 65_536, 65_537};
    private static final int CLIENTS = 4;
    private static final int PHASES = 3;
    private static final int OPS_PER_CLIENT_AND_PHASE = 150;

    @TempDir
    Path tmp;

    /**
     * For the default model, and for the two whose downloads look up checksum records off the pool: on the loop
     * ({@code -inline}) and from a descriptor the ring opened ({@code netty-io-uring}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"platform", "netty-io-uring", "netty-epoll-inline"})
    void noSequenceOfUploadsRenamesAndRestartsMakesTheServerAnnounceAWrongChecksum(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        Path dataDir = Files.createDirectories(tmp.resolve("server"));
        io.xferbench.core.data.DataDirectory bodies = new io.xferbench.core.data.DataDirectory(tmp.resolve("bodies"));
        List<TestFile> contents = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            // Same sizes, different content: a checksum of the wrong file would not match.
            Path p = tmp.resolve("bodies").resolve("body-" + i + ".bin");
            byte[] b = new byte[SIZES[i % SIZES.length]];
            new Random(1000 + i).nextBytes(b);
            Files.write(p, b);
            contents.add(bodies.existing(p.getFileName().toString()));
        }
        // Of the event loops' own methods, their default (the others refuse bodies past 128 KiB, which these sizes pass).
        // TLS methods need the client's TLS session: TlsDownloadTest and ModelRunsMethodAskedTest serve them.
        List<String> senders = DownloadMethods.all().stream().filter(m -> m.availability().isAvailable()).filter(m -> !m.traits().tls())
                .filter(m -> m.loopSender() == null || (model.startsWith("netty-") && m.id().equals("netty-auto")))
                .map(SenderMethod::id).toList();
        List<String> receivers = UploadMethods.all().stream().filter(m -> m.availability().isAvailable()).map(ReceiverMethod::id).toList();
        ConcurrentLinkedQueue<String> mismatches = new ConcurrentLinkedQueue<>();
        AtomicInteger verified = new AtomicInteger();
        AtomicInteger uploads = new AtomicInteger();
        AtomicInteger renames = new AtomicInteger();

        for (int phase = 0; phase < PHASES; phase++) {
            try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model));
                 ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    Random random = new Random(phase * 100L + c);
                    done.add(clients.submit(() -> {
                        XferConnection conn = XferConnection.open("127.0.0.1", server.port(), "");
                        try {
                            for (int op = 0; op < OPS_PER_CLIENT_AND_PHASE; op++) {
                                String name = NAMES[random.nextInt(NAMES.length)];
                                int kind = random.nextInt(10);
                                try {
                                    if (kind < 4) {
                                        TestFile body = contents.get(random.nextInt(contents.size()));
                                        String method = receivers.get(random.nextInt(receivers.size()));
                                        assertThat(conn.upload(Request.upload(method, name, 0, 0, Flags.VERIFY_CRC32C, 0), body).verified()).isTrue();
                                        uploads.incrementAndGet();
                                    } else if (kind < 8) {
                                        String method = senders.get(random.nextInt(senders.size()));
                                        Request r = new Request(io.xferbench.core.protocol.Op.DOWNLOAD, method, name, "", 0, 0,
                                                Flags.VERIFY_CRC32C, 0);
                                        DownloadResult d = conn.download(r);
                                        if (d.verified()) {
                                            verified.incrementAndGet();
                                        } else {
                                            mismatches.add(method + " " + name + ": " + d.failure());
                                        }
                                    } else {
                                        renameBehindTheServersBack(dataDir, name, NAMES[random.nextInt(NAMES.length)], random);
                                        renames.incrementAndGet();
                                    }
                                } catch (RemoteException e) {
                                    if (e.status() != Status.NOT_FOUND) {
                                        throw e;
                                    }
                                } catch (IOException e) {
                                    // A broken connection (the server closes after a failure in a body): reconnect.
                                    conn.close();
                                    conn = XferConnection.open("127.0.0.1", server.port(), "");
                                }
                            }
                        } finally {
                            conn.close();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            }
        }
        assertThat(mismatches).isEmpty();
        assertThat(verified.get()).as("downloads verified").isGreaterThan(100);
        assertThat(uploads.get()).isGreaterThan(50);
        assertThat(renames.get()).isGreaterThan(10);
    }

    /** Another process moves a file over a name, keeping the target's size and mtime when it can. */
    private static void renameBehindTheServersBack(Path dir, String from, String to, Random random) throws IOException {
        Path source = dir.resolve(from);
        Path target = dir.resolve(to);
        try {
            Path staged = dir.resolve("staged-" + Long.toHexString(random.nextLong()) + ".bin");
            Files.copy(source, staged);
            if (Files.exists(target) && Files.size(target) == Files.size(staged)) {
                Files.setLastModifiedTime(staged, Files.getLastModifiedTime(target));
            }
            Files.move(staged, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (NoSuchFileException gone) {
            // Nothing to move yet, or it moved meanwhile.
        }
    }
}
