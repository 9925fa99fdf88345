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
import io.xferbench.server.loop.EventLoopServer;
import io.xferbench.server.loop.FileWorkBatches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The soak of every model: many held connections doing upload, download, stat and delete for a while, every answer
 * checked, no error; afterwards the server process's descriptors and threads are back where they were before the
 * soak. Counts, not speed: the machine may be slow, the assertions do not depend on it.
 *
 * <p>The server runs in a child JVM ({@link ServerProcess}), the clients on virtual threads in this one: in one JVM
 * the {@code virtual} model's connection threads and the clients' would share one virtual-thread scheduler (a carrier
 * per core), so a client's turn and the server's would queue behind each other and the soak would measure that
 * scheduler, not the server. Apart, each JVM has its own, as when a real client drives the server.
 */
@Timeout(900)
class ModelSoakTest {
    /** CI's size; the full figure (docs/robustness.md) runs with -Dxferbench.soak.clients=1000 -Dxferbench.soak.seconds=60. */
    private static final int CLIENTS = Integer.getInteger("xferbench.soak.clients", 200);
    private static final Duration SOAK = Duration.ofSeconds(Long.getLong("xferbench.soak.seconds", 10));
    /** The models to soak, comma-separated (default: every one); the 1,000-connection run is heavy, one model at a time. */
    private static final List<String> MODELS = Stream.of(System.getProperty("xferbench.soak.models", "").split(","))
            .map(String::strip).filter(m -> !m.isEmpty()).toList();
    /** Extra JVM options for the server's JVM, space-separated (e.g. a scheduler knob to compare). */
    private static final List<String> SERVER_JVM_ARGS = Stream.of(System.getProperty("xferbench.soak.serverJvmArgs", "").split(" "))
            .map(String::strip).filter(a -> !a.isEmpty()).toList();
    private static final int SIZE = 50 * 1024;
    /** Descriptors and threads the server's JVM may keep past the soak for its own reasons (lazily opened jars, cleaners). */
    private static final int SLACK = 4;
    /** The name prefix (as /proc truncates it) of the JDK's virtual-thread carriers, kept idle for a while after use. */
    private static final String CARRIER = "ForkJoinPool-";
    /** The platform model's connection threads. */
    private static final String CONNECTION = "server-conn-";
    /**
     * The event-loop models' file pool ({@link EventLoopServer}): a fixed pool that starts its threads as work comes and
     * keeps them, up to {@link ServerModels#DEFAULT_POOL}. How many the warm-up started depends on how its requests
     * were batched ({@link FileWorkBatches}), so they are held to that bound instead of to the baseline.
     */
    private static final String FILE_POOL = "server-file-";

    @TempDir
    Path dataDir;
    @TempDir
    Path clientDir;

    /** Every model, or those -Dxferbench.soak.models names: a model left out is not run rather than skipped. */
    static Stream<String> soakedModels() {
        return Stream.of("platform", "virtual", "virtual+pool:4", "netty-epoll", "netty-io-uring", "netty-epoll-inline",
                "netty-io-uring-inline").filter(m -> MODELS.isEmpty() || MODELS.contains(m));
    }

    @ParameterizedTest
    @MethodSource("soakedModels")
    void heldConnectionsMixingEveryOperationLeakNoDescriptorOrThread(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        TestFile body = new DataDirectory(clientDir).generated(SIZE);
        try (ServerProcess server = ServerProcess.start(List.of(), SERVER_JVM_ARGS, dataDir, "--io-model", model, "--max-connections", Integer.toString(CLIENTS + 8));
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            long pid = server.process.pid();
            int socketsAtStart = sockets(pid);
            // One-time costs (native libraries, class loading, the generated file, the JDK's virtual-thread pollers,
            // which it opens on first use and keeps) paid before the baseline.
            List<Future<Boolean>> downloads = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                downloads.add(clients.submit(() -> {
                    try (XferConnection c = XferConnection.open("127.0.0.1", server.port, "")) {
                        return c.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0)).verified();
                    }
                }));
            }
            for (Future<Boolean> d : downloads) {
                assertThat(d.get()).isTrue();
            }
            // The platform model keeps a connection's thread 2 s after it ends; the baseline is without them.
            MalformedRequestStormTest.waitUntil(() -> threads(pid, name -> name.startsWith(CONNECTION)) == 0, "the warm-up's connection threads ended");
            // And its sockets closed on the server's side too, or the baseline would hide up to 16 leaked descriptors.
            MalformedRequestStormTest.waitUntil(() -> sockets(pid) <= socketsAtStart, "the warm-up's sockets closed");
            int fdsBefore = descriptors(pid);
            int threadsBefore = nonCarrierThreads(pid);

            AtomicLong operations = new AtomicLong();
            ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<String> starved = new ConcurrentLinkedQueue<>();
            long end = System.nanoTime() + SOAK.toNanos();
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                String name = "soak-" + i + ".bin";
                running.add(clients.submit(() -> {
                    boolean roundInTime = false;
                    try (XferConnection c = XferConnection.open("127.0.0.1", server.port, "")) {
                        while (System.nanoTime() < end) {
                            check(c.upload(Request.upload("stream", name, 0, 0, Flags.VERIFY_CRC32C, 0), body).verified(), "upload verified");
                            check(c.stat(name).size() == SIZE, "stat after upload");
                            DownloadResult d = c.download(new Request(Op.DOWNLOAD, "transfer-to", name, "", 0, 0, Flags.VERIFY_CRC32C, 0));
                            check(d.verified() && d.expectedCrc32c() == body.crc32c(), "download of the upload verified");
                            check(c.download(Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0)).verified(), "generated download");
                            c.delete(name);
                            check(c.stat(name).equals(FileStat.ABSENT), "stat after delete");
                            operations.addAndGet(6);
                            roundInTime |= System.nanoTime() < end;
                        }
                        // The total alone would hide a connection the server starved for the whole soak.
                        if (!roundInTime) {
                            starved.add(name);
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
            List<String> closedByServer = server.log.stream().filter(l -> l.contains("closed after")).limit(5).toList();
            // Printed before any assertion, so a failed run still says how far it got.
            System.out.printf("soak %s: %d connections, %d s: %d operations, %d errors, %d connections finished no round within the soak, %d closed by the server%n",
                    model, CLIENTS, SOAK.toSeconds(), operations.get(), errors.size(), starved.size(),
                    server.log.stream().filter(l -> l.contains("closed after")).count());
            assertThat(errors).as(model + ": errors (the server's closes: " + closedByServer + ")").isEmpty();
            assertThat(operations.get()).as("operations done").isGreaterThanOrEqualTo(CLIENTS * 6L);
            assertThat(starved).as(model + ": connections that finished no round within the soak (starved)").isEmpty();

            MalformedRequestStormTest.waitUntil(() -> descriptors(pid) <= fdsBefore + SLACK,
                    "the server's descriptors back near " + fdsBefore + " (now " + descriptors(pid) + ")");
            MalformedRequestStormTest.waitUntil(() -> nonCarrierThreads(pid) <= threadsBefore + SLACK,
                    "the server's threads back near " + threadsBefore + " (now " + nonCarrierThreads(pid) + ")");
            assertThat(threads(pid, name -> name.startsWith(FILE_POOL))).as("file-pool threads").isLessThanOrEqualTo(ServerModels.DEFAULT_POOL);
            System.out.printf("soak %s: %d connections, %d s, %d operations, no error; server after: %d descriptors (before %d), %d threads besides carriers (before %d)%n",
                    model, CLIENTS, SOAK.toSeconds(), operations.get(), descriptors(pid), fdsBefore, nonCarrierThreads(pid), threadsBefore);
        }
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    private static int descriptors(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.count();
        } catch (IOException e) {
            throw new AssertionError("the server process is gone: " + e);
        }
    }

    /** The server process's socket descriptors (its listening socket, and a socket per open connection). */
    /**
     * The server process's TCP sockets (its descriptors whose inode /proc/PID/net/tcp or tcp6 lists): the JDK's one
     * UNIX socket pair end for closing channels (made on the first JDK socket channel the event loops' pool uses) is
     * a once-per-JVM cost, not a connection's.
     */
    private static int sockets(long pid) {
        java.util.Set<String> tcp = new java.util.HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            try {
                Files.readAllLines(Path.of("/proc", Long.toString(pid), "net", table)).stream().skip(1)
                        .map(l -> l.trim().split("\\s+")).filter(f -> f.length > 9).forEach(f -> tcp.add(f[9]));
            } catch (IOException e) {
                throw new AssertionError("the server process is gone: " + e);
            }
        }
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) fds.filter(fd -> {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    return link.startsWith("socket:[") && tcp.contains(link.substring(8, link.length() - 1));
                } catch (IOException e) {
                    return false; // closed between the listing and the read
                }
            }).count();
        } catch (IOException e) {
            throw new AssertionError("the server process is gone: " + e);
        }
    }

    /**
     * The server process's OS threads, less the virtual-thread carriers: the JDK keeps idle carriers for a while
     * (about 30 s) after a burst, which is its scheduler's choice, not a leak.
     */
    /** Threads less the idle-kept carriers and the event-loop models' file pool (bounded on its own). */
    private static int nonCarrierThreads(long pid) {
        return threads(pid, name -> !name.startsWith(CARRIER) && !name.startsWith(FILE_POOL));
    }

    /** The server process's OS threads whose name (as /proc has it: 15 characters at most) passes {@code which}. */
    private static int threads(long pid, Predicate<String> which) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return (int) tasks.filter(t -> {
                try {
                    return which.test(Files.readString(t.resolve("comm")));
                } catch (IOException e) {
                    return false; // the thread exited between the listing and the read
                }
            }).count();
        } catch (IOException e) {
            throw new AssertionError("the server process is gone: " + e);
        }
    }
}
