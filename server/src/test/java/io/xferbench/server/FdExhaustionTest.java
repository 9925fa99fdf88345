package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.core.protocol.Wire;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server out of file descriptors (a real process under a low RLIMIT_NOFILE): clients it cannot accept are told
 * BUSY at once instead of waiting in the backlog, the log does not flood, and it serves again once descriptors free.
 */
@Timeout(120)
class FdExhaustionTest {
    private static final int FD_LIMIT = 300;
    private static final int CLIENTS = 450;

    @TempDir
    Path dataDir;

    @Test
    void clientsBeyondTheDescriptorLimitAreToldBusyAndTheServerRecovers() throws Exception {
        List<SocketChannel> clients = new ArrayList<>();
        try (ServerProcess server = ServerProcess.start(List.of("prlimit", "--nofile=" + FD_LIMIT + ":" + FD_LIMIT), List.of(),
                dataDir, "--max-connections", "2000")) {
            int port = server.port;
            List<String> log = server.log;
            // Hold many idle connections: each one the server accepts keeps a descriptor (and a thread waiting for a request).
            for (int i = 0; i < CLIENTS; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                c.configureBlocking(false);
                clients.add(c);
            }
            int busy = 0;
            long deadline = System.nanoTime() + 20_000_000_000L;
            List<SocketChannel> waiting = new ArrayList<>(clients);
            while (System.nanoTime() < deadline && busy < CLIENTS - FD_LIMIT) {
                for (var it = waiting.iterator(); it.hasNext(); ) {
                    SocketChannel c = it.next();
                    ByteBuffer b = ByteBuffer.allocate(Wire.RESPONSE_PREFIX_BYTES);
                    int n = c.read(b);
                    if (n > 0 && b.get(4) == Status.BUSY.code()) {
                        busy++;
                        it.remove();
                    } else if (n < 0) {
                        it.remove();
                    }
                }
                Thread.sleep(50);
            }
            assertThat(busy).as("clients beyond the descriptor limit told BUSY").isGreaterThanOrEqualTo(CLIENTS - FD_LIMIT);
            long acceptFailures = log.stream().filter(l -> l.contains("accept failed")).count();
            assertThat(acceptFailures).as("accept failures logged (rate-limited): %s", log).isLessThanOrEqualTo(4);

            for (SocketChannel c : clients) {
                c.close();
            }
            clients.clear();
            int p = port;
            MalformedRequestStormTest.waitUntil(() -> {
                try (XferConnection c = XferConnection.open("127.0.0.1", p, "")) {
                    return c.download(Request.download("transfer-to", 4096, Flags.VERIFY_CRC32C, 0)).verified();
                } catch (Exception notYet) {
                    return false;
                }
            }, "served again after the descriptors were freed");
        } finally {
            for (SocketChannel c : clients) {
                c.close();
            }
        }
    }
}
