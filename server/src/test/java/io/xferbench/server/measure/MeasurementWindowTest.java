package io.xferbench.server.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.metrics.PerfSyscallCounter;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.MeasurementReport;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.ProtocolJson;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.WindowOverlap;
import io.xferbench.core.testing.MethodAssumptions;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measurement windows belong to the connection that opened them: they overlap freely, end with their connection, and
 * say when other connections' transfers fell into them.
 */
@Timeout(120)
class MeasurementWindowTest {
    private static final int SIZE = 64 * 1024;
    private static final Request DOWNLOAD = Request.download("transfer-to", SIZE, Flags.VERIFY_CRC32C, 0);

    @TempDir
    static Path dataDir;
    static XferServer server;

    @BeforeAll
    static void start() throws Exception {
        server = XferServer.start(ServerConfig.loopback(dataDir));
        server.data().generated(SIZE);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    private static XferConnection connect() throws Exception {
        return XferConnection.open("127.0.0.1", server.port(), "");
    }

    private static MeasurementReport end(XferConnection c) throws Exception {
        return ProtocolJson.read(c.control(Op.MEASURE_END), MeasurementReport.class);
    }

    @Test
    void interleavedWindowsOfTwoConnectionsAreEachTheirOwn() throws Exception {
        try (XferConnection a = connect(); XferConnection b = connect()) {
            a.control(Op.MEASURE_BEGIN);
            b.control(Op.MEASURE_BEGIN);
            assertThat(a.download(DOWNLOAD).verified()).isTrue();
            MeasurementReport first = end(a);
            assertThat(b.download(DOWNLOAD).verified()).isTrue();
            MeasurementReport second = end(b);
            assertThat(first.process()).isEqualTo("server");
            assertThat(second.process()).isEqualTo("server");
            assertThat(first.cpuUserSeconds() + first.cpuSystemSeconds()).isPositive();
            // A's END closed only A's window: B's ended on its own, and neither can be ended twice.
            assertThatThrownBy(() -> end(a)).isInstanceOfSatisfying(RemoteException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.BAD_REQUEST));
            assertThatThrownBy(() -> end(b)).isInstanceOf(RemoteException.class);
            assertThat(server.openMeasurementWindows()).isZero();
        }
    }

    @Test
    void overlappingTransfersOfAnotherConnectionAreNamedAndOwnOnesAreNot() throws Exception {
        try (XferConnection owner = connect(); XferConnection other = connect()) {
            owner.control(Op.MEASURE_BEGIN);
            owner.download(DOWNLOAD);
            owner.download(DOWNLOAD);
            MeasurementReport alone = end(owner);
            assertThat(alone.overlap()).isEqualTo(WindowOverlap.NONE);
            assertThat(alone.overlap().foreignConnections(Set.of(owner.localAddress()))).isZero();

            owner.control(Op.MEASURE_BEGIN);
            owner.download(DOWNLOAD);
            other.download(DOWNLOAD);
            other.download(DOWNLOAD);
            MeasurementReport shared = end(owner);
            assertThat(shared.overlap().connections()).isEqualTo(1);
            assertThat(shared.overlap().requests()).isEqualTo(2);
            assertThat(shared.overlap().peersComplete()).isTrue();
            assertThat(shared.overlap().peers()).containsExactly(java.util.Map.entry(other.localAddress(), 2L));
            // Seen from a client that owns both connections, nobody else was there; from one that owns only the
            // window's, one other connection was.
            assertThat(shared.overlap().foreignConnections(Set.of(owner.localAddress(), other.localAddress()))).isZero();
            assertThat(shared.overlap().foreignConnections(Set.of(owner.localAddress()))).isEqualTo(1);
        }
    }

    @Test
    void aWindowEndsWithItsConnectionAndItsPerfCounterWithIt() throws Exception {
        List<ProcessHandle> before = perfChildren();
        XferConnection c = connect();
        c.control(Op.MEASURE_BEGIN);
        assertThat(server.openMeasurementWindows()).isEqualTo(1);
        if (PerfSyscallCounter.availability().isAvailable()) {
            assertThat(perfChildren()).hasSize(before.size() + 1);
        }
        c.close(); // mid-window: no MEASURE_END ever comes
        long deadline = System.nanoTime() + 30_000_000_000L;
        while ((server.openMeasurementWindows() > 0 || perfChildren().size() > before.size()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(server.openMeasurementWindows()).as("window released").isZero();
        assertThat(perfChildren()).as("no perf process left").hasSameSizeAs(before);
        MethodAssumptions.assumeAvailable("perf syscall counting (the perf process part of this test)",
                PerfSyscallCounter.availability());
    }

    @Test
    void aSecondBeginOnTheSameConnectionRestartsOnlyItsOwnWindow() throws Exception {
        try (XferConnection a = connect(); XferConnection b = connect()) {
            b.control(Op.MEASURE_BEGIN);
            a.control(Op.MEASURE_BEGIN);
            a.control(Op.MEASURE_BEGIN);
            assertThat(server.openMeasurementWindows()).isEqualTo(2);
            end(a);
            end(b);
            assertThat(server.openMeasurementWindows()).isZero();
        }
    }

    private static List<ProcessHandle> perfChildren() {
        return ProcessHandle.current().children()
                .filter(p -> p.info().command().map(cmd -> cmd.endsWith("/perf") || cmd.equals("perf")).orElse(false))
                .toList();
    }

    /** Five connections opened inside the window start five platform threads on the platform model: the report counts them. */
    @Test
    void aWindowCountsThePlatformThreadsStartedInIt(@TempDir Path dir) throws Exception {
        // A server of its own: the shared one keeps idle connection threads for 2 s, which new connections reuse.
        try (XferServer fresh = XferServer.start(ServerConfig.loopback(dir));
             XferConnection owner = XferConnection.open("127.0.0.1", fresh.port(), "")) {
            owner.control(Op.MEASURE_BEGIN);
            java.util.List<XferConnection> others = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) {
                    XferConnection c = XferConnection.open("127.0.0.1", fresh.port(), "");
                    others.add(c);
                    c.control(Op.INFO);
                }
                MeasurementReport r = end(owner);
                assertThat(r.threadsStarted()).isGreaterThanOrEqualTo(5);
                assertThat(r.threadsPeak()).as("counted and carried by MEASURE_END: at least the six connections' threads").isGreaterThanOrEqualTo(6);
            } finally {
                for (XferConnection c : others) {
                    c.close();
                }
            }
        }
    }

    /** A virtual-thread server names its carriers (JDK 24+ says how many; older JDKs answer -1). */
    @Test
    void aVirtualThreadServerReportsItsCarriers(@TempDir Path dir) throws Exception {
        try (XferServer virtual = XferServer.start(ServerConfig.loopback(dir).withIoModel("virtual"));
             XferConnection c = XferConnection.open("127.0.0.1", virtual.port(), "")) {
            c.control(Op.MEASURE_BEGIN);
            MeasurementReport r = ProtocolJson.read(c.control(Op.MEASURE_END), MeasurementReport.class);
            if (Runtime.version().feature() >= 24) {
                assertThat(r.carrierThreads()).isBetween(1, 256);
            } else {
                assertThat(r.carrierThreads()).isEqualTo(-1);
            }
        }
    }
}
