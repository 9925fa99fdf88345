package io.xferbench.server.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.ServerProcess;
import io.xferbench.server.XferServer;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy's relay buffers count against --max-buffer-memory as the server's transfer buffers do: a relay that
 * would pass it is answered BUSY before anything is allocated, the connection goes on, and the budget is never more
 * than the JVM's direct memory can hold (a relay admitted past it failed to allocate and ended its connection).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyBufferBudgetTest {
    private static final int BIG = (int) (64 * Sizes.MiB);
    private static final int MIB = (int) Sizes.MiB;

    @TempDir
    Path dataDir;

    @Test
    void aRelayPastTheBudgetIsBusyBeforeItsBuffersAreAllocated() throws Exception {
        // Two 64 MiB copy buffers would not even fit the proxy's direct memory: BUSY must come before the allocation.
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             ServerProcess proxy = ServerProcess.startProxy(List.of("-XX:MaxDirectMemorySize=100m"), "127.0.0.1:" + server.port(),
                     "--max-buffer-memory", "64MiB");
             XferConnection c = XferConnection.open("127.0.0.1", proxy.port, "")) {
            assertThatThrownBy(() -> c.proxy("copy", BIG))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY))
                    .hasMessageContaining("--max-buffer-memory");
            assertThat(c.proxy("copy", MIB)).as("the connection goes on with a relay that fits").isEqualTo("copy");
            assertThat(c.download(Request.download("transfer-to", Sizes.MiB, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }

    @Test
    void relaysHoldTheirBuffersUntilTheirConnectionEnds() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferProxy proxy = XferProxy.start(ProxyConfig.loopback(server.port(), "copy").withMaxBufferMemory(4L * Sizes.MiB));
             XferConnection third = XferConnection.open("127.0.0.1", proxy.port(), "")) {
            XferConnection first = XferConnection.open("127.0.0.1", proxy.port(), "");
            try (XferConnection second = XferConnection.open("127.0.0.1", proxy.port(), "")) {
                assertThat(first.proxy("copy", MIB)).isEqualTo("copy"); // 2 MiB: a buffer each way
                assertThat(second.proxy("copy", MIB)).isEqualTo("copy"); // 4 MiB in all
                assertThatThrownBy(() -> third.proxy("copy", 4096))
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY));
                first.close();
                // The proxy gives the first relay's buffers back when it sees that connection end.
                String relay = null;
                for (int i = 0; i < 100 && relay == null; i++) {
                    try {
                        relay = third.proxy("copy", 4096);
                    } catch (RemoteException busy) {
                        assertThat(busy.status()).isEqualTo(Status.BUSY);
                        Thread.sleep(100);
                    }
                }
                assertThat(relay).as("a relay fits once another connection's are given back").isEqualTo("copy");
            }
        }
    }

    /**
     * The default budget (1 GiB) in a proxy whose direct memory is 100 MiB: it admitted relays until their buffers
     * could not be allocated, and such a relay's connection ended (after its "proxy ready"). The budget is now three
     * quarters of the direct memory, so with 32 MiB per relay (16 MiB each way) the third is BUSY and every admitted
     * relay carries a verified download.
     */
    @Test
    void concurrentRelaysBeyondTheJvmsDirectMemoryAreBusyNeverAClosedConnection() throws Exception {
        List<XferConnection> connections = new ArrayList<>();
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             ServerProcess proxy = ServerProcess.startProxy(List.of("-XX:MaxDirectMemorySize=100m"), "127.0.0.1:" + server.port())) {
            int relayed = 0;
            int busy = 0;
            for (int i = 0; i < 5; i++) {
                XferConnection c = XferConnection.open("127.0.0.1", proxy.port, "");
                connections.add(c);
                try {
                    assertThat(c.proxy("copy", 16 * MIB)).isEqualTo("copy");
                } catch (RemoteException e) {
                    assertThat(e.status()).as(e.getMessage()).isEqualTo(Status.BUSY);
                    assertThat(e.getMessage()).contains("past --max-buffer-memory " + (75 * Sizes.MiB));
                    busy++;
                    continue;
                }
                relayed++;
                // Every relay admitted holds its buffers (its connection stays open) and must carry a whole download.
                assertThat(c.download(Request.download("transfer-to", Sizes.MiB, Flags.VERIFY_CRC32C, 0)).verified())
                        .as("relay %d", i).isTrue();
            }
            assertThat(relayed).isEqualTo(2);
            assertThat(busy).isEqualTo(3);
        } finally {
            for (XferConnection c : connections) {
                c.close();
            }
        }
    }

    /** An explicit --max-buffer-memory past what the JVM can allocate is a usage error naming both numbers. */
    @Test
    void aBudgetPastTheJvmsDirectMemoryIsAUsageError() throws Exception {
        ServerProcess.Exited exited = ServerProcess.runToExit(List.of("-XX:MaxDirectMemorySize=100m"),
                "--proxy-to", "127.0.0.1:1", "--max-buffer-memory", "1GiB");
        assertThat(exited.status()).as(exited.output().toString()).isEqualTo(2);
        assertThat(exited.output()).containsExactly("xferbench-server: --max-buffer-memory 1GiB is more than this JVM can "
                + "allocate for buffers: 75MiB (three quarters of its direct memory, 100MiB): ask at most that, or raise "
                + "-XX:MaxDirectMemorySize (see --help)");
    }
}
