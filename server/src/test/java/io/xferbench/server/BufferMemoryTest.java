package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import io.xferbench.server.model.PerConnection;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Buffer memory is bounded per connection and per server, and running out of it is answered, not a silent close. */
@Timeout(120)
class BufferMemoryTest {
    private static final int MiB = 1 << 20;

    @TempDir
    Path dataDir;

    @Test
    void oneConnectionCyclingThroughBufferSizesHoldsABoundedAmount() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir));
             XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
            for (int i = 0; i < 24; i++) {
                int buffer = 64 * MiB - i * 4096;
                assertThat(c.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, buffer)).verified()).isTrue();
                assertThat(server.reservedBufferBytes()).isLessThanOrEqualTo((long) PerConnection.MAX_INSTANCES * 64 * MiB);
            }
        }
    }

    @Test
    void aRequestPastTheServersBudgetIsBusyAndTheConnectionGoesOn() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withMaxBufferMemory(100L * MiB));
             XferConnection a = XferConnection.open("127.0.0.1", server.port(), "");
             XferConnection b = XferConnection.open("127.0.0.1", server.port(), "")) {
            assertThat(a.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 60 * MiB)).verified()).isTrue();
            assertThatThrownBy(() -> b.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 60 * MiB)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY))
                    .hasMessageContaining("--max-buffer-memory");
            assertThat(b.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }

    /**
     * The default budget (1 GiB) in a server whose direct memory is 32 MiB: a 48 MiB direct buffer was admitted and
     * failed with an OutOfMemoryError (SERVER_ERROR, the connection closed). The budget is now 24 MiB, three quarters
     * of the direct memory: BUSY before the allocation, and the connection goes on.
     */
    @Test
    void aBufferPastTheJvmsDirectMemoryIsBusyAndTheConnectionGoesOn() throws Exception {
        try (ServerProcess server = ServerProcess.start(List.of(), List.of("-XX:MaxDirectMemorySize=32m"), dataDir);
             XferConnection c = XferConnection.open("127.0.0.1", server.port, "")) {
            assertThatThrownBy(() -> c.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 48 * MiB)))
                    .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY))
                    .hasMessageContaining("--max-buffer-memory " + 24 * MiB);
            assertThat(c.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
        }
    }

    /** A real OutOfMemoryError (a heap buffer larger than the heap; the budget admits it) reaches the client as an error frame. */
    @Test
    void anOutOfMemoryErrorIsAnsweredAndTheServerKeepsServing() throws Exception {
        try (ServerProcess server = ServerProcess.start(List.of(), List.of("-Xmx48m", "-XX:MaxDirectMemorySize=256m"), dataDir)) {
            int port = server.port;
            try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
                assertThatThrownBy(() -> c.download(Request.download("stream", 4096, Flags.VERIFY_CRC32C, 64 * MiB)))
                        .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.SERVER_ERROR))
                        .hasMessageContaining("OutOfMemoryError");
            }
            try (XferConnection c = XferConnection.open("127.0.0.1", port, "")) {
                assertThat(c.download(Request.download("channel-direct", 4096, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }
}
