package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.metrics.SyscallCounts;
import io.xferbench.core.method.Availability;
import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.method.TransferOptions;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every model asked for every download method either serves it, verified, or refuses it UNAVAILABLE with a reason;
 * never another method in its place. The kernel's syscall counts prove a few characteristic ones ran as asked.
 */
@Timeout(180)
class ModelRunsMethodAskedTest {
    private static final long SIZE = 100_000;
    /** What a method that ran must have made (its defining syscall), and what it must not (a substitute's). */
    private static final Map<String, List<String>> PROOF = Map.of(
            "transfer-to", List.of("sendfile64", "pread64"),
            "mmap", List.of("mmap", "sendfile64"),
            "netty-buffer", List.of("pread64", "sendfile64"),
            "loop-sendfile", List.of("sendfile64", "pread64"),
            "dontcache", List.of("preadv2", "pread64"));

    /** dontcache reads a buffer at a time, each a preadv2 (its file system's probe, once, is not counted on). */
    private static final long DONTCACHE_READS = (SIZE + TransferOptions.DEFAULT_BUFFER_SIZE - 1) / TransferOptions.DEFAULT_BUFFER_SIZE;

    @TempDir
    Path dataDir;

    static List<String> everyModel() {
        return IoModelTest.everyModel().toList();
    }

    @ParameterizedTest
    @MethodSource("everyModel")
    void everyMethodIsServedAsAskedOrRefusedWithAReason(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        boolean onLoop = model.startsWith("netty-");
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model).withTls(TestTls.server()))) {
            server.data().generated(SIZE);
            for (SenderMethod method : DownloadMethods.all()) {
                String outcome = ask(server, method.id());
                if (outcome == null) {
                    continue; // served, verified
                }
                assertThat(outcome).as(model + " " + method.id() + " refused with a reason").matches("UNAVAILABLE: " + method.id() + ": .{10,}");
                if (!method.availability().isAvailable()) {
                    continue;
                }
                // What must run wherever the machine has it: blocking methods everywhere, the loop's own on the loops.
                if (method.traits().tls()) {
                    assertThat(onLoop).as(model + " refused TLS method " + method.id() + ": " + outcome).isTrue();
                } else if (method.loopSender() != null) {
                    assertThat(onLoop).as(model + " refused its own loop method " + method.id() + ": " + outcome).isFalse();
                } else if (List.of("stream", "channel-direct", "transfer-to", "sendfile", "mmap").contains(method.id())) {
                    fail(model + " refused " + method.id() + ": " + outcome);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("everyModel")
    void characteristicMethodsMakeTheirOwnSyscalls(String model) throws Exception {
        IoModelTest.assumeModelRuns(model);
        MethodAssumptions.assumeAvailable("perf syscall counting", PerfSyscallCounter.availability());
        boolean onLoop = model.startsWith("netty-");
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withIoModel(model))) {
            Path file = server.data().generated(SIZE).path();
            Map<String, Availability> unavailable = new java.util.LinkedHashMap<>();
            for (Map.Entry<String, List<String>> proof : PROOF.entrySet()) {
                SenderMethod method = DownloadMethods.byId(proof.getKey()).orElseThrow();
                if (method.loopSender() != null && !onLoop) {
                    continue;
                }
                // dontcache's availability is the kernel's; the data directory's file system may still refuse it.
                Availability here = "dontcache".equals(method.id()) ? DontCacheHere.forFile(file) : method.availability();
                if (!here.isAvailable()) {
                    unavailable.put(method.id(), here); // the others are proved first; then the test is skipped with its reason
                    continue;
                }
                SyscallCounts counts = counted(server, method.id());
                String made = proof.getValue().get(0);
                String substitute = proof.getValue().get(1);
                assertThat(counts.of(made)).as(model + " " + method.id() + ": " + made + " " + counts.bySyscall())
                        .isGreaterThanOrEqualTo("dontcache".equals(method.id()) ? DONTCACHE_READS : 1);
                assertThat(counts.of(substitute)).as(model + " " + method.id() + ": no " + substitute + " " + counts.bySyscall()).isZero();
            }
            unavailable.forEach(MethodAssumptions::assumeAvailable);
        }
    }

    /** Null when the download was served and verified, else "STATUS: reason". */
    private static String ask(XferServer server, String method) throws Exception {
        // A TLS method asked as a client that knows it is one: with the flag, trusting the server's certificate.
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "").tls(TestTls.client())) {
            try {
                assertThat(c.download(Request.download(method, SIZE, Flags.VERIFY_CRC32C | DownloadMethods.tlsFlag(method), 0)).verified())
                        .as(method).isTrue();
                return null;
            } catch (RemoteException e) {
                assertThat(e.status()).as(method + ": " + e.reason()).isEqualTo(Status.UNAVAILABLE);
                // The connection goes on after a refusal.
                assertThat(c.download(Request.download("transfer-to".equals(method) ? "stream" : "transfer-to", SIZE,
                        Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
                return e.status() + ": " + e.reason();
            }
        }
    }

    /** One download by {@code method}, warmed before, counted by the kernel. */
    private static SyscallCounts counted(XferServer server, String method) throws Exception {
        try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            assertThat(c.download(Request.download(method, SIZE, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            try (PerfSyscallCounter perf = PerfSyscallCounter.attach(ProcessHandle.current().pid())) {
                perf.awaitAttached();
                perf.enable();
                assertThat(c.download(Request.download(method, SIZE, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
                perf.disable();
                return perf.stop();
            }
        }
    }
}
