package io.xferbench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.xferbench.core.method.SenderMethod;
import io.xferbench.core.net.DownloadResult;
import io.xferbench.core.registry.DownloadMethods;
import io.xferbench.core.net.XferConnection;
import io.xferbench.core.protocol.Flags;
import io.xferbench.core.protocol.Op;
import io.xferbench.core.protocol.RemoteException;
import io.xferbench.core.protocol.Request;
import io.xferbench.core.protocol.Status;
import io.xferbench.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConcurrentClientsTest {
    static final int CLIENTS = 500;

    @TempDir
    Path dataDir;

    @Test
    void fiveHundredSimultaneousClientsAllVerify() throws Exception {
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withMaxConnections(CLIENTS + 10));
             ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            // Every registered download method that runs here (a missing one is skipped with its reason elsewhere).
            // TLS methods need the client's TLS session: TlsDownloadTest and ModelRunsMethodAskedTest serve them.
            String[] methods = DownloadMethods.blocking().stream().filter(m -> m.availability().isAvailable()).filter(m -> !m.traits().tls())
                    .map(SenderMethod::id).toArray(String[]::new);
            server.data().generated(64 * 1024);
            CountDownLatch allConnected = new CountDownLatch(CLIENTS);
            List<Future<DownloadResult>> results = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                String method = methods[i % methods.length];
                results.add(clients.submit(() -> {
                    try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                        c.control(Op.INFO);
                        allConnected.countDown();
                        allConnected.await(); // every client holds its connection before any downloads: 500 at once
                        return c.download(Request.download(method, 64 * 1024, Flags.VERIFY_CRC32C, 0));
                    }
                }));
            }
            int verified = 0;
            for (Future<DownloadResult> f : results) {
                verified += f.get().verified() ? 1 : 0;
            }
            assertThat(verified).isEqualTo(CLIENTS);
        }
    }

    @Test
    void clientsOverTheLimitArePolitelyRefused() throws Exception {
        int limit = 8;
        try (XferServer server = XferServer.start(ServerConfig.loopback(dataDir).withMaxConnections(limit))) {
            List<XferConnection> held = new ArrayList<>();
            try {
                for (int i = 0; i < limit; i++) {
                    XferConnection c = XferConnection.open("127.0.0.1", server.port(), "");
                    c.control(Op.INFO); // served: it holds a worker
                    held.add(c);
                }
                try (XferConnection extra = XferConnection.open("127.0.0.1", server.port(), "")) {
                    assertThatThrownBy(() -> extra.control(Op.INFO))
                            .isInstanceOfSatisfying(RemoteException.class, e -> assertThat(e.status()).isEqualTo(Status.BUSY))
                            .hasMessageContaining("--max-connections");
                }
            } finally {
                for (XferConnection c : held) {
                    c.close();
                }
            }
            MalformedRequestStormTest.waitUntil(() -> server.openConnections() == 0, "held connections closed");
            try (XferConnection c = XferConnection.open("127.0.0.1", server.port(), "")) {
                assertThat(c.download(Request.download("stream", 100, Flags.VERIFY_CRC32C, 0)).verified()).isTrue();
            }
        }
    }
}
