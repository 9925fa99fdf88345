package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.Sizes;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy's relay buffers count against --max-buffer-memory as the server's transfer buffers do: a relay that
 * would pass it is answered BUSY before anything is allocated, the connection goes on, and a relay that fails to
 * allocate anyway (a small -XX:MaxDirectMemorySize) ends its connection instead of hanging the client.
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

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aRelayWhoseBufferCannotBeAllocatedEndsItsConnection() throws Exception {
        // The budget admits two 64 MiB buffers but the direct memory holds one: a pump dies of OutOfMemoryError.
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             ServerProcess proxy = ServerProcess.startProxy(List.of("-XX:MaxDirectMemorySize=100m"), "127.0.0.1:" + server.port());
             XferConnection c = XferConnection.open("127.0.0.1", proxy.port, "")) {
            assertThat(c.proxy("copy", BIG)).isEqualTo("copy");
            // Before the fix the client waited here forever (the test's timeout ends it).
            assertThatThrownBy(() -> c.download(Request.download("transfer-to", 0, 0, 0)))
                    .as("the client is told the relay ended, not left waiting")
                    .isInstanceOf(IOException.class);
        }
    }
}
