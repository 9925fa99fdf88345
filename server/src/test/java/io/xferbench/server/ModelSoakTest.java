package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.data.DataDirectory;
import io.xferbench.core.data.TestFile;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.FileStat;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.Request;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CI-sized soak of every model: 200 held connections doing upload, download, stat and delete for a while, every
 * answer checked, no error; afterwards the
 * server's descriptors and threads are gone (the JVM's fd and thread counts back near where they were before it
 * started). Counts, not speed: the machine may be slow, the assertions do not depend on it.
 */
@Timeout(600)
class ModelSoakTest {
    /** CI's size; the full figure (docs/robustness.md) runs with -Dxferbench.soak.clients=1000 -Dxferbench.soak.seconds=60. */
    private static final int CLIENTS = Integer.getInteger("xferbench.soak.clients", 200);
    private static final Duration SOAK = Duration.ofSeconds(Long.getLong("xferbench.soak.seconds", 10));
    private static final int SIZE = 50 * 1024;
    /** Descriptors and threads the JVM may keep past a server's life for its own reasons (lazily opened jars, cleaners). */
    private static final int SLACK = 4;

    @TempDir
    Path dataDir;
    @TempDir
    Path clientDir;

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual", "virtual+pool:4", "netty-epoll", "netty-io-uring", "netty-epoll-inline", "netty-io-uring-inline"})
    void heldConnectionsMixingEveryOperationLeakNoDescriptorOrThread(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        ServerConfig config = ServerConfig.loopback(dataDir).withIoModel(model).withMaxConnections(CLIENTS + 8);
        TestFile body = new DataDirectory(clientDir).generated(SIZE);
        // One-time costs (native libraries, class loading, the generated file) paid before the baseline, by clients on
        // virtual threads like the soak's: the JDK opens its virtual-thread pollers (an epoll descriptor each) on first
        // use and keeps them, and they are the clients', not the server's.
        try (XferServer warm = XferServer.start(config);
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Boolean>> downloads = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                downloads.add(clients.submit(() -> {
                    try (XferConnection c = XferConnection.open("127.0.0.1", warm.port(), "")) {
                        return c.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0)).verified();
                    }
                }));
            }
            for (Future<Boolean> d : downloads) {
                assertThat(d.get()).isTrue();
            }
        }
        int fdsBefore = openDescriptors();
        int threadsBefore = otherPlatformThreads();

        AtomicLong operations = new AtomicLong();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        try (XferServer server = XferServer.start(config);
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            long end = System.nanoTime() + SOAK.toNanos();
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                String name = "soak-" + i + ".bin";
                running.add(clients.submit(() -> {
                    try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                        while (System.nanoTime() < end) {
                            check(c.upload(Request.upload("stream", name, 0, 0, Flags.VERIFY_CRC32C, 0), body).verified(), "upload verified");
                            check(c.stat(name).size() == SIZE, "stat after upload");
                            DownloadResult d = c.download(new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0));
                            check(d.verified() && d.expectedCrc32c() == body.crc32c(), "download of the upload verified");
                            check(c.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0)).verified(), "generated download");
                            c.delete(name);
                            check(c.stat(name).equals(FileStat.ABSENT), "stat after delete");
                            operations.addAndGet(6);
                        }
                    } catch (Exception | AssertionError e) {
                        errors.add(name + ": " + e);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        }
        assertThat(errors).as(model + ": errors").isEmpty();
        assertThat(operations.get()).as("operations done").isGreaterThanOrEqualTo(CLIENTS * 6L);

        MalformedRequestStormTest.waitUntil(() -> serverThreads().isEmpty(), "the server's threads ended: " + serverThreads());
        MalformedRequestStormTest.waitUntil(() -> openDescriptors() <= fdsBefore + SLACK,
                "descriptors back near " + fdsBefore + " (now " + openDescriptors() + ")");
        MalformedRequestStormTest.waitUntil(() -> otherPlatformThreads() <= threadsBefore + SLACK,
                "platform threads back near " + threadsBefore + " (now " + otherPlatformThreads() + ")");
        System.out.printf("soak %s: %d connections, %d s, %d operations, no error; after: %d descriptors (before %d), %d platform threads (before %d)%n",
                model, CLIENTS, SOAK.toSeconds(), operations.get(), openDescriptors(), fdsBefore, otherPlatformThreads(), threadsBefore);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    private static int openDescriptors() {
        return Objects.requireNonNull(new File("/proc/self/fd").list()).length;
    }

    /** Live threads named by the server's models (loops, file pool, acceptor, pool workers, connections). */
    private static List<String> serverThreads() {
        return liveThreadNames().stream().filter(n -> n.startsWith("server-")).toList();
    }

    /**
     * Live platform threads, less the virtual-thread carriers: the clients' virtual threads add carriers the JDK keeps
     * idle for a while (about 30 s), which are the test's, not the server's.
     */
    private static int otherPlatformThreads() {
        return (int) liveThreadNames().stream().filter(n -> !n.startsWith("ForkJoinPool-")).count();
    }

    private static List<String> liveThreadNames() {
        ThreadInfo[] infos = ManagementFactory.getThreadMXBean().getThreadInfo(ManagementFactory.getThreadMXBean().getAllThreadIds());
        return Arrays.stream(infos).filter(Objects::nonNull).map(ThreadInfo::getThreadName).toList();
    }
}
